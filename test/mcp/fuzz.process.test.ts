import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CallToolResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { seededRandom } from '../support/seededRandom';
import { callTool, startBridge, tempWorkspace } from './bridgeProcess';
import type { ConnectedBridge } from './bridgeProcess';

const CALLS = Number(process.env['FUZZ_CALLS'] ?? 10_000);
const IN_FLIGHT = 8;

test('10,000 random and malformed tool calls each get an answer, and the bridge still works after', async () => {
  const bridge = await startBridge(tempWorkspace(), { name: 'fuzzer' });
  try {
    await fuzz(bridge);
  } finally {
    await bridge.close();
  }
});

async function fuzz(bridge: ConnectedBridge): Promise<void> {
  const { tools } = await bridge.client.listTools();
  const names = [...tools.map((t) => t.name), 'no_such_tool', '', 'memory_remember\u0000', '🧠'];
  const fields = [...new Set(tools.flatMap((t) => Object.keys(t.inputSchema.properties ?? {})))];
  const next = seededRandom(20_261_126);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;

  const deep = (depth: number): unknown => {
    let value: unknown = 'bottom';
    for (let i = 0; i < depth; i++) value = next() < 0.5 ? [value] : { nested: value };
    return value;
  };
  const text = (): string =>
    pick([
      () => 'ordinary words about src/index.ts',
      () => '',
      () => ' \t\n ',
      () => 'x'.repeat(Math.floor(next() * 100_000)),
      () => '\u0000\u0001\u001b[31m\u007f control',
      () => '日本語のメモ 🧠 émoji \u202e reversed \ud800',
      () => 'm_' + Math.floor(next() * 1e9).toString(36),
      () => '2026-01-01T00:00:00Z',
      () => "'; DROP TABLE memories; --",
      () => '%_\\ like wildcards',
    ])();
  const value = (): unknown =>
    pick([
      text,
      () => Math.floor(next() * 2000) - 1000,
      () => next(),
      () => Number.MAX_SAFE_INTEGER,
      () => -0,
      () => true,
      () => null,
      () => [text(), text()],
      () => [1, null, {}],
      () => ({ [text()]: text() }),
      () => deep(Math.floor(next() * 3000)),
      () => Array.from({ length: 2000 }, () => 'a'),
    ])();
  const args = (): unknown =>
    pick([
      () => Object.fromEntries(Array.from({ length: Math.floor(next() * 4) }, () => [pick(fields), value()])),
      () => ({ [pick(fields)]: value(), [text()]: value() }),
      () => value(),
      () => undefined,
    ])();

  let answered = 0;
  let failures = 0;
  const schemaViolations: string[] = [];
  const one = async () => {
    const name = pick(names);
    // One call in ten sends params that need not be an object at all (a string, a number, an array):
    // the bridge's transport must answer those too.
    const params = next() < 0.1 ? value() : { name, arguments: args() };
    try {
      await bridge.client.request({ method: 'tools/call', params: params as never }, CallToolResultSchema);
    } catch (error) {
      if (!(error instanceof McpError))
        throw new Error(`${String(error)} for ${JSON.stringify(params).slice(0, 300)}`);
      if (/output schema|Internal error/i.test(error.message))
        schemaViolations.push(error.message.slice(0, 200));
      failures++;
    }
    answered++;
  };
  for (let started = 0; started < CALLS; started += IN_FLIGHT) {
    await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, CALLS - started) }, one));
  }
  assert.equal(answered, CALLS);
  assert.deepEqual(schemaViolations, []);
  assert.ok(failures > CALLS / 2, 'most random calls are invalid and refused');
  const after = await callTool<{ outcome: string }>(bridge.client, 'memory_remember', {
    content: 'still alive after the fuzz',
  });
  assert.equal(after.outcome, 'added');
}
