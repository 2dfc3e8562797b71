import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { tempWorkspace } from './bridgeProcess';
import { connectBridge } from './inProcessBridge';
import type { InProcessBridge } from './inProcessBridge';

// The default embedding model, unlike the other MCP contract tests: merges need vectors.
let bridge: InProcessBridge;
before(async () => {
  bridge = await connectBridge(tempWorkspace(), { env: { ENGRAM_EMBEDDING: 'use-lite' } });
});
after(() => bridge.close());

async function remember(content: string) {
  const result = (await bridge.client.callTool({
    name: 'memory_remember',
    arguments: { content },
  })) as CallToolResult;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  return { structured: result.structuredContent as Record<string, unknown>, text };
}

test('memory_remember keeps a note with another number, and names what a restatement merged into', async () => {
  const first = await remember('writer 1 note 1');
  const second = await remember('writer 1 note 2');
  assert.equal(first.structured['outcome'], 'added');
  assert.equal(second.structured['outcome'], 'added', second.text);
  assert.equal(second.structured['merged'], undefined);

  const original = await remember('Use pnpm for installs.');
  const id = (original.structured['memory'] as { id: string }).id;
  const restated = await remember('Use pnpm for installs');
  assert.equal(restated.structured['outcome'], 'updated');
  const merged = restated.structured['merged'] as Record<string, unknown>;
  assert.equal(merged['into'], id);
  assert.equal(merged['previousContent'], 'Use pnpm for installs.');
  assert.match(String(merged['reason']), /^restatement: similarity 0\.\d\d >= 0\.92/);
  assert.ok(
    restated.text.includes(`; merged into ${id}, replacing "Use pnpm for installs." (restatement: `),
    restated.text,
  );
});
