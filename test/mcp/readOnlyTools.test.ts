import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connectBridge } from './inProcessBridge';
import { seededWorkspace } from './seededWorkspace';

/** Every file of the workspace's store (database, journal, snapshots, indexes) by its content hash. */
function storeFiles(workspace: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else
        out[path.relative(workspace, full)] = createHash('sha256').update(readFileSync(full)).digest('hex');
    }
  };
  walk(path.join(workspace, '.engram'));
  return out;
}

test('read-only tools, resources and prompts write nothing: no ledger row, no journal record, not even on close', async () => {
  const seeded = await seededWorkspace(40);
  const before = storeFiles(seeded.workspace);
  const bridge = await connectBridge(seeded.workspace, { name: 'reader' });
  const args: Record<string, Record<string, unknown>> = {
    memory_recall: { query: 'postgres migration', explain: true },
    memory_skills: { query: 'postgres migration', threshold: 0 },
    memory_context_levels: { query: 'postgres migration' },
    memory_get: { id: seeded.editedId },
    memory_history: { id: seeded.editedId },
    memory_explain: { id: seeded.editedId },
    memory_related: { entity: 'postgres' },
    code_symbols: { query: 'helper' },
    code_files: { query: 'src' },
    code_locate: { query: 'where is the helper?' },
    code_why: { target: 'src/app.ts:1' },
    search_nodes: { query: 'postgres' },
    open_nodes: { names: ['postgres'] },
  };
  const called: string[] = [];
  try {
    const { tools } = await bridge.client.listTools();
    for (const tool of tools.filter((t) => t.annotations?.readOnlyHint === true)) {
      const result = (await bridge.client.callTool({
        name: tool.name,
        arguments: args[tool.name] ?? {},
      })) as CallToolResult;
      assert.ok(!result.isError, `${tool.name} failed: ${JSON.stringify(result.content)}`);
      called.push(tool.name);
    }
    for (const uri of [
      'memory://recent',
      'code://map',
      `memory://${seeded.editedId}`,
      'file-history://src%2Fapp.ts',
    ]) {
      await bridge.client.readResource({ uri });
    }
    await bridge.client.getPrompt({ name: 'recap', arguments: {} });
    await bridge.client.getPrompt({ name: 'why', arguments: { target: 'postgres' } });
  } finally {
    // Buffered reads used to be flushed on close: the store is compared after it.
    await bridge.close();
  }
  assert.ok(
    called.includes('memory_list') && called.includes('memory_recall') && called.length >= 12,
    called.join(),
  );
  assert.deepEqual(storeFiles(seeded.workspace), before);
});
