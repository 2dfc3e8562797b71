import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_BUDGET } from '../../engine/mcp/budget';
import { tokenCount } from '../../engine/retrieval/tokenCount';
import { connectBridge } from './inProcessBridge';
import type { InProcessBridge } from './inProcessBridge';
import { seededWorkspace } from './seededWorkspace';
import type { SeededWorkspace } from './seededWorkspace';

let seeded: SeededWorkspace;
let bridge: InProcessBridge;
before(async () => {
  seeded = await seededWorkspace();
  bridge = await connectBridge(seeded.workspace);
});
after(() => bridge?.close());

/** Tokens as a model receives them: the structured JSON or the text, whichever is larger. */
const tokensOf = (...forms: string[]) => Math.max(...forms.map((form) => tokenCount(form)));

/**
 * Calls of the full profile's own tools with their default budget, the largest pages they allow
 * (limit, k) and the seeded workspace's biggest ids. The compat tools answer as the official
 * server does (whole graphs), so they are not budgeted here.
 */
function calls(): Array<[string, Record<string, unknown>]> {
  return [
    ['memory_recall', { query: 'postgres migration auth cache', k: 200, explain: true }],
    ['memory_recall', { query: 'Caroline decided', k: 50 }],
    ['memory_context', { query: 'billing webhooks and retries' }],
    ['memory_get', { id: seeded.editedId }],
    ['memory_list', {}],
    ['memory_list', { limit: 500, status: 'all' }],
    ['memory_history', { id: seeded.editedId }],
    ['memory_explain', { id: seeded.editedId }],
    ['memory_entities', {}],
    ['memory_entities', { limit: 500 }],
    ['memory_related', { entity: 'postgres', hops: 2, limit: 200 }],
    ['memory_timeline', {}],
    ['memory_export', {}],
    ['memory_export', { format: 'md' }],
    ['memory_stats', {}],
    ['code_symbols', { query: 'helper', limit: 200 }],
    ['code_files', { query: 'src', limit: 200 }],
    ['code_locate', { query: 'billing webhooks and retries', limit: 100 }],
    ['code_map', {}],
    ['code_map', { query: 'billing' }],
    ['drift_check', { all: true }],
    ['drift_fix', {}],
  ];
}

test('every tool, resource and prompt result of the full profile fits the default budget, counted with the real tokenizer', async () => {
  const measured: Array<[string, number]> = [];
  for (const [name, args] of calls()) {
    const result = (await bridge.client.callTool({ name, arguments: args })) as CallToolResult;
    assert.ok(!result.isError, `${name} failed: ${JSON.stringify(result.content)}`);
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    measured.push([
      `${name} ${JSON.stringify(args)}`,
      tokensOf(JSON.stringify(result.structuredContent), text),
    ]);
  }
  for (const uri of ['memory://recent', 'code://map', 'drift://report', `memory://${seeded.editedId}`]) {
    const result = await bridge.client.readResource({ uri });
    measured.push([uri, tokensOf(...result.contents.map((c) => ('text' in c ? c.text : '')))]);
  }
  for (const [name, args] of [
    ['prime', {}],
    ['recap', {}],
    ['recap', { days: '3650' }],
    ['why', { target: 'postgres' }],
  ] as const) {
    const result = await bridge.client.getPrompt({ name, arguments: args });
    const text = result.messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('\n');
    measured.push([`prompt ${name} ${JSON.stringify(args)}`, tokensOf(text)]);
  }
  const over = measured.filter(([, tokens]) => tokens > DEFAULT_BUDGET);
  assert.deepEqual(
    over,
    [],
    `over ${DEFAULT_BUDGET} tokens:\n${over.map(([what, n]) => `${what}: ${n}`).join('\n')}`,
  );
  // The seeded workspace is big enough that the budget, not a small store, is what bounds them.
  const near = measured.filter(([, tokens]) => tokens > DEFAULT_BUDGET / 2).map(([what]) => what);
  assert.ok(
    near.some((what) => what.startsWith('memory_list')),
    `memory_list stayed small: ${near.join(', ')}`,
  );
});

test('a memory holding a tokenizer special token is counted as text, not refused', async () => {
  // Model transcripts and tokenizer docs quote `<|endoftext|>`; gpt-tokenizer refuses special
  // tokens by default, which made every budgeted read of such a memory fail.
  const text = 'The sampler stops at <|endoftext|> and <|fim_prefix|> marks the infill prompt';
  const remembered = (await bridge.client.callTool({
    name: 'memory_remember',
    arguments: { content: text },
  })) as CallToolResult;
  assert.ok(!remembered.isError, JSON.stringify(remembered.content));
  for (const [name, args] of [
    ['memory_recall', { query: 'sampler endoftext infill prompt', budget: 300 }],
    ['memory_list', { budget: 300 }],
  ] as const) {
    const result = (await bridge.client.callTool({ name, arguments: args })) as CallToolResult;
    assert.ok(!result.isError, `${name} failed: ${JSON.stringify(result.content)}`);
    assert.match(JSON.stringify(result.structuredContent), /<\|endoftext\|>/, `${name} lost the memory`);
  }
});
