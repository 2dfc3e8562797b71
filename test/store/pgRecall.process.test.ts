import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Pool } from 'pg';
import { Engram } from '../../engine/engram';
import { affordableTerms, MATCH_BUDGET, searchLexical } from '../../engine/lexical/lexicalIndex';
import { queryTerms } from '../../engine/lexical/tokenizer';
import { PgJournal } from '../../engine/pgStore/pgJournal';
import { silentLogger } from '../../engine/host';
import { startPostgres, testPool } from '../support/postgresServer';
import type { PostgresServer } from '../support/postgresServer';
import { SQL_WASM_PATH, tempDir } from '../support/temp';
import { OLD_MEMORY, postgresStores, versionOneDatabase } from './contractStores';
import { copyIntoRecallTables, LABELLED, rememberLabelled, sqlJsHost } from './recallFixture';
import { searchLexicalInPostgres } from '../../engine/pgStore/pgLexicalSearch';
import type { ReplicaRead } from '../../engine/pgStore/recallRowSync';

/**
 * Recall on the PostgreSQL store reads PostgreSQL's own tables (engine/pgStore/recallTables.ts):
 * written in the journal's transaction, built for an existing store at open, ranked by the same
 * BM25 as sql.js, with visibility in the SQL. A real PostgreSQL 15 the test starts.
 */
let postgres: PostgresServer;
let schemas = 0;
before(async () => {
  postgres = await startPostgres();
});
after(async () => {
  await postgres.stop();
});

function schemaPool(schema: string): Pool {
  return testPool(postgres.url(), { options: `-c search_path=${schema},public` });
}

async function pgEngram(): Promise<{ engram: Engram; pool: Pool; schema: string }> {
  const schema = `recall_${process.pid}_${++schemas}`;
  const dbPath = path.join(tempDir('engram-pgrecall-'), 'memory.db');
  const engram = await Engram.open({
    dbPath,
    store: postgres.url(),
    storeSchema: schema,
    sqlWasmPath: SQL_WASM_PATH,
  });
  return { engram, pool: schemaPool(schema), schema };
}

/** A pool on a new store's schema (its tables made, nothing in them). */
async function emptyStorePool(): Promise<Pool> {
  const schema = `recall_${process.pid}_${++schemas}`;
  await (await PgJournal.connect(postgres.url(), silentLogger, schema)).close();
  return schemaPool(schema);
}

/** PostgreSQL's lexical search gives sql.js's ids in its order, scores within 1e-9. */
async function assertSameLexical(pool: Pool, read: ReplicaRead, query: string, limit: number): Promise<void> {
  const expected = read((r) => searchLexical(r, query, limit, ['active']));
  const got = await searchLexicalInPostgres(pool, query, limit, ['active'], undefined);
  assert.ok(expected.length > 0, query);
  assert.deepEqual(
    got.map((h) => h.memoryId),
    expected.map((h) => h.memoryId),
    query,
  );
  for (const [i, hit] of got.entries())
    assert.ok(
      Math.abs(hit.score - expected[i]!.score) < 1e-9,
      `${query}: ${hit.score} ${expected[i]!.score}`,
    );
}

/** Remembers one memory, closes, lets `tamper` change the tables, reopens: recall must find it. */
async function rebuiltAtReopen(
  tamper: (pool: Pool) => Promise<void>,
  check: (pool: Pool, schema: string) => Promise<void> = () => Promise.resolve(),
): Promise<void> {
  const { engram, pool, schema } = await pgEngram();
  let reopened: Engram | undefined;
  try {
    const { memory } = await engram.call('remember', {
      content: 'Invoices are generated on the first of the month',
    });
    await engram.close();
    await tamper(pool);
    reopened = await Engram.open({
      dbPath: path.join(tempDir('engram-pgrecall-'), 'memory.db'),
      store: postgres.url(),
      storeSchema: schema,
      sqlWasmPath: SQL_WASM_PATH,
    });
    const found = await reopened.call('recall', { query: 'invoices month', channels: ['lexical'] });
    assert.deepEqual(
      found.hits.map((h) => h.memory.id),
      [memory.id],
    );
    await check(pool, schema);
  } finally {
    await reopened?.close();
    await pool.end();
  }
}

describe('recall on PostgreSQL', () => {
  it("recall's lexical candidates come from PostgreSQL's rows, written with each write", async () => {
    const { engram, pool } = await pgEngram();
    try {
      const { memory } = await engram.call('remember', { content: 'Payments settle through Stripe nightly' });
      const rows = await pool.query<{ memory_id: string; content: string; status: string }>(
        'SELECT memory_id, content, status FROM engram_recall_rows',
      );
      assert.deepEqual(rows.rows, [{ memory_id: memory.id, content: memory.content, status: 'active' }]);
      const found = await engram.call('recall', { query: 'stripe payments', channels: ['lexical'] });
      assert.deepEqual(
        found.hits.map((h) => h.memory.id),
        [memory.id],
      );
      // Taken out of PostgreSQL's index only (the replica still has it): the lexical channel no longer finds it.
      await pool.query('DELETE FROM engram_recall_postings');
      const after = await engram.call('recall', { query: 'stripe payments', channels: ['lexical'] });
      assert.deepEqual(after.hits, []);
    } finally {
      await engram.close();
      await pool.end();
    }
  });

  it('edits, invalidations and forgets move the rows and the statistics with the journal', async () => {
    const { engram, pool } = await pgEngram();
    try {
      const a = (
        await engram.call('remember', { content: 'Deploys run from main through the release workflow' })
      ).memory;
      const b = (await engram.call('remember', { content: 'The release workflow tags vX.Y.Z' })).memory;
      const c = (await engram.call('remember', { content: 'Staging resets every Monday' })).memory;
      await engram.call('edit', { id: a.id, changes: { content: 'Deploys run from the trunk branch only' } });
      await engram.call('invalidate', { id: b.id, reason: 'we stopped tagging' });
      await engram.call('forget', { id: c.id });
      const rows = await pool.query<{ memory_id: string; content: string | null; status: string | null }>(
        'SELECT memory_id, content, status FROM engram_recall_rows ORDER BY doc',
      );
      const listed = await engram.call('get', { id: a.id });
      assert.equal(rows.rows.find((r) => r.memory_id === a.id)?.content, listed.memory.content);
      assert.equal(rows.rows.find((r) => r.memory_id === b.id)?.status, 'invalidated');
      const forgotten = rows.rows.find((r) => r.memory_id === c.id);
      assert.ok(forgotten === undefined || forgotten.status === 'forgotten', JSON.stringify(forgotten));
      // The statistics equal a count over the rows themselves.
      const drift = await pool.query(
        `SELECT t.term, t.col, t.docs, coalesce(c.docs, 0) AS counted FROM engram_recall_terms t
         LEFT JOIN (SELECT e.term, col, count(*) AS docs FROM engram_recall_rows r,
           unnest(r.terms) WITH ORDINALITY e(term, i), generate_series(0, 3) col
           WHERE r.tfs[4 * e.i - 3 + col] > 0 GROUP BY 1, 2) c
         ON c.term = t.term AND c.col = t.col WHERE t.col < 4 AND t.docs <> coalesce(c.docs, 0)`,
      );
      assert.deepEqual(drift.rows, []);
      const totals = await pool.query<{ col: number; total: string }>(
        'SELECT col, total FROM engram_recall_totals ORDER BY col',
      );
      const counted = await pool.query<{ n: string; l0: string }>(
        'SELECT count(*) AS n, sum(len0) AS l0 FROM engram_recall_rows',
      );
      assert.equal(totals.rows.find((t) => t.col === 4)?.total, counted.rows[0]!.n);
      assert.equal(totals.rows.find((t) => t.col === 0)?.total, counted.rows[0]!.l0);
      const trunk = await engram.call('recall', { query: 'trunk branch', channels: ['lexical'] });
      assert.deepEqual(
        trunk.hits.map((h) => h.memory.id),
        [a.id],
      );
      assert.deepEqual(
        (await engram.call('recall', { query: 'main release', channels: ['lexical'] })).hits,
        [],
      );
    } finally {
      await engram.close();
      await pool.end();
    }
  });

  it('the postings mirror the rows: each term of each row with its counts, lengths, status and owner', async () => {
    const { engram, pool } = await pgEngram();
    try {
      const a = (await engram.call('remember', { content: 'Deploys run from main via the release job' }))
        .memory;
      const b = (await engram.call('remember', { content: 'Release tags are signed' })).memory;
      const c = (await engram.call('remember', { content: 'Staging resets on Monday' })).memory;
      await engram.call('remember', {
        content: 'My deploy token rotates weekly',
        scope: 'private',
        actor: { agent: 'bob' },
      });
      await engram.call('edit', { id: a.id, changes: { content: 'Deploys run from the trunk branch only' } });
      await engram.call('invalidate', { id: b.id, reason: 'no more tags' });
      await engram.call('forget', { id: c.id });
      const mismatched = await pool.query(
        `SELECT p.term AS posting, x.term AS row_term, x.doc FROM engram_recall_postings p
         FULL JOIN (SELECT e.term, r.doc, r.tfs[4 * e.i - 3] AS tf0, r.tfs[4 * e.i - 2] AS tf1,
             r.tfs[4 * e.i - 1] AS tf2, r.tfs[4 * e.i] AS tf3, r.len0, r.len1, r.len2, r.len3, r.status,
             (r.scope IS NULL OR r.scope = 'private') AS private,
             CASE WHEN r.scope IS NULL OR r.scope = 'private' THEN r.agent END AS agent
           FROM engram_recall_rows r, unnest(r.terms) WITH ORDINALITY e(term, i)) x
         ON x.term = p.term AND x.doc = p.doc
         WHERE p.doc IS NULL OR x.doc IS NULL
           OR (p.tf0, p.tf1, p.tf2, p.tf3, p.len0, p.len1, p.len2, p.len3, p.status, p.private, p.agent)
              IS DISTINCT FROM (x.tf0, x.tf1, x.tf2, x.tf3, x.len0, x.len1, x.len2, x.len3, x.status, x.private, x.agent)`,
      );
      assert.deepEqual(mismatched.rows, []);
      const owners = await pool.query<{ agent: string | null; n: string }>(
        'SELECT agent, count(*) AS n FROM engram_recall_postings WHERE private GROUP BY agent',
      );
      assert.deepEqual(
        owners.rows.map((r) => r.agent),
        ['bob'],
      );
      assert.deepEqual(
        (await engram.call('recall', { query: 'release tags signed', channels: ['lexical'] })).hits,
        [],
        'an invalidated memory is not an active candidate',
      );
    } finally {
      await engram.close();
      await pool.end();
    }
  });

  it('a write PostgreSQL refuses at append leaves no row behind', async () => {
    const { engram, pool, schema } = await pgEngram();
    try {
      await engram.call('remember', { content: 'Kept: the first memory' });
      await pool.query(`
        CREATE FUNCTION ${schema}.refuse() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'refused by the test'; END $$;
        CREATE TRIGGER refuse BEFORE INSERT ON ${schema}.engram_journal FOR EACH ROW EXECUTE FUNCTION ${schema}.refuse();`);
      await assert.rejects(
        engram.call('remember', { content: 'Refused: the second memory' }),
        /refused by the test/,
      );
      const rows = await pool.query<{ content: string }>('SELECT content FROM engram_recall_rows');
      assert.deepEqual(
        rows.rows.map((r) => r.content),
        ['Kept: the first memory'],
      );
    } finally {
      await engram.close();
      await pool.end();
    }
  });

  it("an existing store's rows are built at open, and recall finds its memory through them", async () => {
    const store = await postgresStores(() => postgres)();
    await store.seed(await versionOneDatabase());
    const engram = await store.open();
    try {
      const found = await engram.call('recall', { query: 'Stripe', channels: ['lexical'] });
      assert.deepEqual(
        found.hits.map((h) => h.memory.id),
        [OLD_MEMORY.id],
      );
    } finally {
      await engram.close();
    }
  });

  it('a store at the newest schema made before the recall tables gets them built at its next open', async () => {
    // As a store written by a server without these tables left it: the journal alone.
    await rebuiltAtReopen(async (pool) => {
      await pool.query(
        'DROP TABLE engram_recall_rows, engram_recall_postings, engram_recall_terms, engram_recall_totals, engram_recall_vectors, engram_recall_meta',
      );
    });
  });

  it('a store built in the first layout (a tsvector, no postings) is built again whole at its next open', async () => {
    await rebuiltAtReopen(
      async (pool) => {
        // As team4's layout left a store: rows and statistics, the first layout's marker, no postings.
        await pool.query('DROP TABLE engram_recall_postings');
        await pool.query('ALTER TABLE engram_recall_rows ADD COLUMN lexemes tsvector');
        await pool.query("UPDATE engram_recall_meta SET key = 'built_at_seq'");
      },
      async (pool, schema) => {
        const totals = await pool.query<{ total: string }>(
          'SELECT total FROM engram_recall_totals WHERE col = 4',
        );
        assert.equal(totals.rows[0]?.total, '1', 'the rebuild counted the document once');
        const column = await pool.query(
          "SELECT 1 FROM information_schema.columns WHERE table_schema = $1 AND column_name = 'lexemes'",
          [schema],
        );
        assert.deepEqual(column.rows, [], 'the tsvector column is gone');
      },
    );
  });

  it("another agent's private memory is never a lexical candidate, in the SQL itself", async () => {
    const { engram, pool } = await pgEngram();
    try {
      const shared = (await engram.call('remember', { content: 'The billing service retries webhooks' }))
        .memory;
      const secret = (
        await engram.call('remember', {
          content: 'The billing webhook secret rotates monthly',
          scope: 'private',
          actor: { agent: 'bob' },
        })
      ).memory;
      const ids = async (viewer: string | undefined) =>
        (await searchLexicalInPostgres(pool, 'billing webhook', 10, ['active'], viewer))
          .map((h) => h.memoryId)
          .sort();
      assert.deepEqual(await ids('alice'), [shared.id]);
      assert.deepEqual(await ids('bob'), [shared.id, secret.id].sort());
      assert.deepEqual(await ids(undefined), [shared.id, secret.id].sort());
    } finally {
      await engram.close();
      await pool.end();
    }
  });

  it('ranks as sql.js does: the same ids and BM25 scores for every labelled query', async () => {
    const pool = await emptyStorePool();
    const local = await sqlJsHost();
    try {
      await rememberLabelled(local.call);
      assert.equal(await copyIntoRecallTables(pool, local.read), 'real[]');
      for (const { query } of LABELLED) await assertSameLexical(pool, local.read, query, 20);
    } finally {
      await local.close();
      await pool.end();
    }
  });

  it("past the term budget it keeps sql.js's terms: the same ids and scores on 3,200 memories", async () => {
    const pool = await emptyStorePool();
    const local = await sqlJsHost();
    try {
      const parts = [
        ['loader', 'cache', 'router', 'queue', 'parser', 'worker', 'scheduler'],
        ['billing', 'search', 'auth', 'upload', 'export', 'mail', 'audit', 'report', 'admin', 'feed', 'chat'],
      ];
      const memories = Array.from({ length: MATCH_BUDGET + 200 }, (_, i) => ({
        content: `Note ${i}: the ${parts[0]![i % 7]} of ${parts[1]![i % 11]} retries ${i % 50} times`,
        ...(i % 3 === 0 ? { context: `owned by team ${i % 17}` } : {}),
        ...(i % 5 === 0 ? { tags: [parts[1]![i % 11]!] } : {}),
      }));
      for (let i = 0; i < memories.length; i += 500)
        await (local.call as (m: string, p: unknown) => Promise<unknown>)('rememberMany', {
          memories: memories.slice(i, i + 500),
        });
      await copyIntoRecallTables(pool, local.read);
      let budgeted = 0;
      for (const query of [
        'loader billing retries 7',
        'queue of search team 3',
        'parser audit 42 times',
        'cache',
      ]) {
        const all = queryTerms(query);
        if (local.read((r) => affordableTerms(r, all)).length < all.length) budgeted++;
        await assertSameLexical(pool, local.read, query, 30);
      }
      assert.ok(budgeted >= 2, `the budget left terms out of ${budgeted} queries`);
    } finally {
      await local.close();
      await pool.end();
    }
  });

  it('whole recall gives the same top ids on sql.js and PostgreSQL for the labelled set', async () => {
    const { engram, pool } = await pgEngram();
    const local = await sqlJsHost();
    try {
      const onPg = await rememberLabelled((method, params) =>
        engram.call(method, params as { content: string }),
      );
      const onSqlJs = await rememberLabelled(local.call);
      let answered = 0;
      for (const { query, answer } of LABELLED) {
        const pg = (await engram.call('recall', { query, k: 5 })).hits.map((h) => onPg.get(h.memory.id));
        const sqlJs = (
          (await local.call('recall' as 'remember', { query, k: 5 })) as unknown as {
            hits: Array<{ memory: { id: string } }>;
          }
        ).hits.map((h) => onSqlJs.get(h.memory.id));
        assert.deepEqual(pg, sqlJs, query);
        if (pg[0] === answer) answered++;
      }
      assert.ok(answered >= LABELLED.length - 2, `${answered} of ${LABELLED.length} answered first`);
    } finally {
      await engram.close();
      await pool.end();
      await local.close();
    }
  });
});
