import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { MAX_QUERY_CHARS } from '../../engine/retrieval/queryLimit';
import { callTool, tempWorkspace } from './bridgeProcess';
import { connectBridge } from './inProcessBridge';
import type { InProcessBridge } from './inProcessBridge';

/** A 1 MB question: before the bound, 40 KB of it held the bridge (and every client) for 8 s. */
const HUGE = 'why did we choose sql.js for src/store/db.ts? '.repeat(22_000).slice(0, 1_000_000);
/** Generous on a shared machine: a refusal takes milliseconds, the old analysis took minutes. */
const CEILING_MS = 20_000;

let bridge: InProcessBridge;
before(async () => {
  bridge = await connectBridge(tempWorkspace(), { args: ['--profile', 'full'] });
});
after(() => bridge.close());

/** The refusal `call` ends in, within the ceiling; a stall or an answer fails. */
async function refusal(what: string, call: () => Promise<unknown>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${CEILING_MS} ms`)), CEILING_MS);
  });
  try {
    await Promise.race([call(), stalled]);
  } catch (error) {
    if (!(error instanceof McpError)) throw error;
    return error.message;
  } finally {
    clearTimeout(timer);
  }
  assert.fail(`${what} accepted a ${HUGE.length}-character argument`);
}

test('every prompt argument and tool query of 1 MB is refused at once, with one line naming it', async () => {
  const prompts: Array<[string, string]> = [
    ['prime', 'task'],
    ['why', 'target'],
    ['recap', 'days'],
  ];
  for (const [name, field] of prompts) {
    const message = await refusal(name, () =>
      bridge.client.getPrompt({ name, arguments: { [field]: HUGE } }),
    );
    assert.match(message, new RegExp(`${name}: ${field}: Too big`));
    assert.ok(!message.includes('\n') && message.length < 200, message);
  }
  const tools: Array<[string, Record<string, unknown>]> = [
    ['memory_recall', { query: HUGE }],
    ['memory_context', { query: HUGE }],
    ['memory_entities', { query: HUGE }],
    ['code_map', { query: HUGE }],
    ['code_symbols', { query: HUGE }],
    ['code_files', { query: HUGE }],
    ['code_locate', { query: HUGE }],
  ];
  for (const [name, args] of tools) {
    const message = await refusal(name, () => bridge.client.callTool({ name, arguments: args }));
    assert.match(message, new RegExp(`${name}: query: Too big`));
    assert.ok(!message.includes('\n') && message.length < 200, message);
  }
  // The official memory server's search_nodes answers every failure in its result (isError), and
  // so does the compat tool: refused by the engine's query bound, in one line.
  const search = await bridge.client.callTool({ name: 'search_nodes', arguments: { query: HUGE } });
  assert.equal(search.isError, true);
  assert.deepEqual(search.content, [
    { type: 'text', text: `query is ${HUGE.length} characters; the limit is ${MAX_QUERY_CHARS}` },
  ]);
});

test('a query at the limit is answered, by prompts and tools alike', async () => {
  await callTool(bridge.client, 'memory_remember', {
    content: 'Decided: sql.js keeps the engine portable',
    kind: 'decision',
  });
  const atLimit = HUGE.slice(0, MAX_QUERY_CHARS);
  const prime = await bridge.client.getPrompt({ name: 'prime', arguments: { task: atLimit } });
  assert.equal(prime.messages.length, 1);
  const why = await bridge.client.getPrompt({ name: 'why', arguments: { target: atLimit } });
  assert.match(JSON.stringify(why.messages), /sql\.js keeps the engine portable/);
  const recalled = await callTool<{ total: number }>(bridge.client, 'memory_recall', { query: atLimit });
  assert.ok(recalled.total >= 1);
});
