import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import type { SqlReader } from '../../engine/store/sqlAccess';
import { syntheticMemories } from '../bench/syntheticMemories';
import { openTestHost } from '../support/host';
import type { TestHost } from '../support/host';

/** Every statement recall runs through the store, with the values it binds. */
function recordStatements(t: TestHost): Array<{ sql: string; params: unknown[] }> {
  const seen: Array<{ sql: string; params: unknown[] }> = [];
  const store = t.host.store;
  const read = store.read.bind(store);
  const spy = (reader: SqlReader): SqlReader =>
    new Proxy(reader, {
      get(target, name, receiver) {
        const value: unknown = Reflect.get(target, name, receiver);
        if (typeof value !== 'function' || !['all', 'get', 'value'].includes(String(name))) return value;
        return (sql: string, params?: unknown[]) => {
          seen.push({ sql, params: Array.isArray(params) ? params : [] });
          return (value as (sql: string, params?: unknown[]) => unknown).call(target, sql, params);
        };
      },
    });
  mock.method(store, 'read', <T>(fn: (reader: SqlReader) => T): T => read((r) => fn(spy(r))));
  return seen;
}

async function loaded(count: number): Promise<TestHost> {
  const t = await openTestHost({ lexicalCopy: 'on-first-search' });
  const texts = syntheticMemories(count, 3);
  for (let i = 0; i < texts.length; i += 250)
    await t.call('rememberMany', { memories: texts.slice(i, i + 250).map((content) => ({ content })) });
  return t;
}

const queries = syntheticMemories(60, 41).map((text) => text.split(' ').slice(2, 9).join(' '));

describe('recall reads', () => {
  it('reads whole rows (content, tags, source) only for the hits it returns, once its pool is known', async () => {
    const t = await loaded(400);
    const seen = recordStatements(t);
    for (const k of [3, 10]) {
      // The first recall since the last commit reads its pool's rows whole; the ranking fields
      // are kept, so the next reads whole rows for its hits only.
      await t.call('recall', { query: queries[0]!, k });
      seen.length = 0;
      const { hits } = await t.call('recall', { query: queries[0]!, k });
      assert.equal(hits.length, k);
      const whole = seen.filter((s) => /m\.content\b/.test(s.sql));
      const ids = whole.flatMap((s) => s.params.filter((p) => typeof p === 'string'));
      assert.deepEqual(ids.sort(), hits.map((h) => h.memory.id).sort(), `k ${k}`);
    }
  });

  it('prepares no new statement once its lists of every length were seen', async () => {
    const t = await loaded(600);
    const seen = recordStatements(t);
    for (const query of queries.slice(0, 30)) await t.call('recall', { query, k: 10 });
    const before = new Set(seen.map((s) => s.sql));
    for (const query of queries.slice(30)) await t.call('recall', { query, k: 10 });
    const fresh = new Set(seen.map((s) => s.sql).filter((sql) => !before.has(sql)));
    // Alias lookups and the like are fixed statements; only id lists could make new ones.
    assert.deepEqual([...fresh], []);
  });

  it('ranks by what the last commit left, not by fields kept from before it', async () => {
    const t = await loaded(200);
    const query = queries[1]!;
    const first = await t.call('recall', { query, k: 10, explain: true });
    const last = first.hits.at(-1)!;
    assert.equal(last.boosts?.pinned, 1);
    await t.call('pin', { id: last.memory.id });
    const pinned = await t.call('recall', { query, k: 10, explain: true });
    assert.equal(pinned.hits.find((h) => h.memory.id === last.memory.id)?.boosts?.pinned, 1.15);
    assert.equal(pinned.hits.find((h) => h.memory.id === last.memory.id)?.memory.pinned, true);
    await t.call('invalidate', { id: first.hits[0]!.memory.id, reason: 'wrong' });
    const after = await t.call('recall', { query, k: 10 });
    assert.ok(!after.hits.some((h) => h.memory.id === first.hits[0]!.memory.id));
  });
});
