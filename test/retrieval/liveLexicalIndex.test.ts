import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { affordableTerms, indexMemory, MATCH_BUDGET, searchLexical } from '../../engine/lexical/lexicalIndex';
import type { LexicalHit } from '../../engine/lexical/lexicalIndex';
import {
  lexicalBuildMs,
  lexicalCopyReady,
  searchLexicalInMemory,
  useLexicalCopy,
} from '../../engine/lexical/liveLexicalIndex';
import type { LexicalCopyMode } from '../../engine/lexical/liveLexicalIndex';
import { queryTerms } from '../../engine/lexical/tokenizer';
import { openTestHost } from '../support/host';
import { written } from '../support/written';
import type { TestHost } from '../support/host';

/** A deterministic corpus with a small vocabulary, so terms repeat across memories and columns. */
const WORDS = [
  'cache',
  'redis',
  'postgres',
  'deploy',
  'staging',
  'getUserName',
  'src/api/rateLimit.ts',
  'billing',
  'invoice',
  'retry',
  'timeout',
  'Caroline',
  'Melanie',
  'webpack',
  'migration',
  'schema',
  'queue',
  'worker',
  'session',
  'token',
];

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function sentence(next: () => number, length: number): string {
  return Array.from({ length }, () => WORDS[Math.floor(next() * WORDS.length)]!).join(' ');
}

const QUERIES = [
  'redis cache timeout',
  'who deploys to staging',
  'user name',
  'rateLimit.ts retry',
  'Caroline billing invoice',
  'schema migration worker queue session token',
  'webpack',
  'nothing matches this',
];

async function seeded(
  count: number,
  lexicalCopy: LexicalCopyMode = 'on-first-search',
): Promise<{ t: TestHost; ids: string[] }> {
  const t = await openTestHost({ lexicalCopy });
  const next = random(7);
  const ids: string[] = [];
  const memories = Array.from({ length: count }, (_, i) => ({
    content: `${sentence(next, 3 + Math.floor(next() * 12))} note ${i}`,
    context: i % 3 === 0 ? sentence(next, 20) : undefined,
    tags: i % 4 === 0 ? [WORDS[i % WORDS.length]!.toLowerCase().replace(/[^a-z]/g, '')] : [],
  }));
  for (let i = 0; i < memories.length; i += 100) {
    const results = written(await t.call('rememberMany', { memories: memories.slice(i, i + 100) }));
    ids.push(...results.map((r) => r.memory.id));
  }
  return { t, ids };
}

/** Same memories in the same order; tied scores may come in either order. */
function assertSameRanking(actual: LexicalHit[], expected: LexicalHit[], label: string): void {
  assert.equal(actual.length, expected.length, `${label}: hit count`);
  const key = (hits: LexicalHit[]) =>
    hits.map((h) => `${h.score.toFixed(9)} ${h.memoryId}`).sort((a, b) => a.localeCompare(b));
  assert.deepEqual(key(actual), key(expected), `${label}: memories and scores`);
  actual.forEach((hit, i) =>
    assert.ok(Math.abs(hit.score - expected[i]!.score) < 1e-9, `${label}: rank ${i}`),
  );
}

function assertMatchesSql(t: TestHost, label: string, limit = 20): void {
  const store = t.host.store;
  for (const statuses of [['active'], ['active', 'invalidated', 'superseded']]) {
    for (const query of QUERIES) {
      const inMemory = store.read((r) => searchLexicalInMemory(store.db, r, query, limit, statuses));
      const sql = store.read((r) => searchLexical(r, query, limit, statuses));
      assertSameRanking(inMemory, sql, `${label} / ${query} / ${statuses.join(',')}`);
    }
  }
}

describe('in-memory lexical index', () => {
  it('ranks exactly as BM25 over FTS4 matchinfo, before and after every kind of write', async () => {
    const { t, ids } = await seeded(300);
    assert.equal(lexicalBuildMs(t.host.store.db), 0, 'opening does not build it');
    assertMatchesSql(t, 'fresh');
    assert.ok(lexicalBuildMs(t.host.store.db) > 0, 'the first search built it');

    await t.call('edit', { id: ids[5]!, changes: { content: 'redis redis redis cache timeout now' } });
    await t.call('edit', { id: ids[6]!, changes: { tags: ['billing', 'invoice'] } });
    assertMatchesSql(t, 'after edits');

    await t.call('invalidate', { id: ids[7]!, reason: 'wrong' });
    await t.call('forget', { id: ids[8]! });
    await t.call('forget', { id: ids[9]! });
    await t.call('restore', { id: ids[9]! });
    assertMatchesSql(t, 'after status changes');

    await t.call('remember', { content: 'Caroline retries the billing invoice on timeout' });
    await t.call('rememberMany', {
      memories: [{ content: 'webpack webpack staging deploy' }, { content: 'a fresh word: zeppelin' }],
    });
    assertMatchesSql(t, 'after new memories');
    const store = t.host.store;
    const fresh = store.read((r) => searchLexicalInMemory(store.db, r, 'zeppelin', 5));
    assert.equal(fresh.length, 1);
  });

  it('leaves out the same common terms as the SQL search once a store passes the term budget', async () => {
    const { t } = await seeded(MATCH_BUDGET + 100);
    const store = t.host.store;
    const query = 'schema migration worker queue session token';
    const kept = store.read((r) => affordableTerms(r, queryTerms(query)));
    assert.ok(kept.length < queryTerms(query).length, 'the budget applies to this query');
    assertMatchesSql(t, 'past the budget', 30);
    // Document counts are cached until a write changes them.
    await t.call('rememberMany', {
      memories: Array.from({ length: 40 }, (_, i) => ({ content: `queue token worker ${i}` })),
    });
    assertMatchesSql(t, 'past the budget, after writes', 30);
  });

  it('looks past ineligible top matches until it has enough', async () => {
    const { t } = await seeded(200);
    const store = t.host.store;
    const best = store.read((r) => searchLexicalInMemory(store.db, r, 'redis cache', 40));
    for (const hit of best.slice(0, 30)) await t.call('forget', { id: hit.memoryId });
    const after = store.read((r) => searchLexicalInMemory(store.db, r, 'redis cache', 20));
    assert.equal(after.length, 20);
    assert.ok(!after.some((h) => best.slice(0, 30).some((b) => b.memoryId === h.memoryId)));
    assertMatchesSql(t, 'after forgetting the best');
    // The SQL search first reads a shortlist of the best-scored matches: with most of it forgotten
    // it must read them all, and still rank as the index does.
    for (const hit of best.slice(30)) await t.call('forget', { id: hit.memoryId });
    const sql = store.read((r) => searchLexical(r, 'redis cache', 20));
    assert.equal(sql.length, 20);
    assertSameRanking(
      store.read((r) => searchLexicalInMemory(store.db, r, 'redis cache', 20)),
      sql,
      'after forgetting the best 40',
    );
  });

  it('keeps what the database keeps when a write is rolled back', async () => {
    const { t, ids } = await seeded(50);
    const store = t.host.store;
    assertMatchesSql(t, 'before');
    assert.throws(() =>
      store.write((tx) => {
        indexMemory(tx, ids[0]!, { content: 'zeppelin airship', context: null, tags: [], entityNames: [] });
        assert.equal(searchLexicalInMemory(store.db, tx, 'zeppelin', 5).length, 1, 'the write sees itself');
        throw new Error('abort');
      }),
    );
    assert.deepEqual(
      store.read((r) => searchLexicalInMemory(store.db, r, 'zeppelin', 5)),
      [],
    );
    assertMatchesSql(t, 'after the rollback');
  });

  it('is rebuilt from the database after reopening', async () => {
    const { t, ids } = await seeded(120);
    await t.call('edit', { id: ids[3]!, changes: { content: 'postgres schema migration tonight' } });
    const before = t.host.store.read((r) => searchLexicalInMemory(t.host.store.db, r, 'postgres schema', 10));
    await t.host.close();
    const reopened = await openTestHost({ dbPath: t.dbPath, lexicalCopy: 'on-first-search' });
    const store = reopened.host.store;
    assert.deepEqual(
      store.read((r) => searchLexicalInMemory(store.db, r, 'postgres schema', 10)),
      before,
    );
    assertMatchesSql(reopened, 'reopened');
    await reopened.host.close();
  });

  it('recall ranks lexical candidates with it', async () => {
    const { t, ids } = await seeded(100);
    await t.call('edit', { id: ids[42]!, changes: { content: 'the zeppelin hangar key is under the mat' } });
    const { hits } = await t.call('recall', { query: 'where is the zeppelin hangar key', k: 3 });
    assert.equal(hits[0]?.memory.id, ids[42]);
  });
  it('a host builds it in the background from open; until then searches are answered in SQL', async () => {
    const { t, ids } = await seeded(2500, 'background');
    await lexicalCopyReady(t.host.store.db);
    await t.host.close();
    // Reopened: a build of three slices starts; a search before it is done is answered in SQL.
    const reopened = await openTestHost({ dbPath: t.dbPath, lexicalCopy: 'background' });
    const store = reopened.host.store;
    const early = store.read((r) => searchLexicalInMemory(store.db, r, 'redis cache', 10));
    assert.equal(lexicalBuildMs(store.db), 0, 'not built yet');
    assertSameRanking(
      early,
      store.read((r) => searchLexical(r, 'redis cache', 10)),
      'before the copy is ready',
    );
    // Written while the build runs: a document already read (the first) and one not read yet.
    await new Promise((resolve) => setImmediate(resolve));
    await reopened.call('edit', { id: ids[0]!, changes: { content: 'zeppelin hangar near the docks' } });
    await reopened.call('edit', { id: ids[2400]!, changes: { content: 'zeppelin mooring mast' } });
    await lexicalCopyReady(store.db);
    assert.ok(lexicalBuildMs(store.db) > 0, 'built in the background');
    assertMatchesSql(reopened, 'after a background build with writes during it');
    await reopened.host.close();
  });

  it('a one-shot process never builds it: every search is the SQL one', async () => {
    const { t } = await seeded(200, 'never');
    assertMatchesSql(t, 'one-shot');
    assert.equal(lexicalBuildMs(t.host.store.db), 0);
    // Switched to background (a host that turns long-lived), it builds and then agrees.
    useLexicalCopy(t.host.store.db, 'background', (fn) => t.host.store.read(fn));
    await lexicalCopyReady(t.host.store.db);
    assert.ok(lexicalBuildMs(t.host.store.db) > 0);
    assertMatchesSql(t, 'built after all');
  });
});
