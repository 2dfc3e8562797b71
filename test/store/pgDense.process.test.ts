import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type pg from 'pg';
import { Engram } from '../../engine/engram';
import { resolveDefaultModelAssets } from '../../engine/embedding/useLiteAssets';
import { startPostgres, testPool } from '../support/postgresServer';
import type { PostgresServer } from '../support/postgresServer';
import { SQL_WASM_PATH, tempDir } from '../support/temp';

/**
 * Dense recall on a PostgreSQL team store: the process that serves a write embeds it (USE-lite,
 * the model the package ships), the vector is kept in engram_recall_vectors with the journal, and
 * any process's dense channel ranks there, so it finds memories another process wrote. A real
 * PostgreSQL 15 without pgvector (the real[] column); pgvector's SQL is tested on PGlite
 * (pgVectorSearch.process.test.ts).
 */
let postgres: PostgresServer;
let admin: pg.Pool;
let schemas = 0;
before(async () => {
  postgres = await startPostgres();
  admin = testPool(postgres.url());
});
after(async () => {
  await admin.end();
  await postgres.stop();
});

function openEngine(schema: string): Promise<Engram> {
  return Engram.open({
    dbPath: path.join(tempDir('engram-pgdense-'), 'memory.db'),
    store: postgres.url(),
    storeSchema: schema,
    sqlWasmPath: SQL_WASM_PATH,
    embedding: { kind: 'use-lite', assets: resolveDefaultModelAssets(require.resolve) },
  });
}

async function vectorsOf(schema: string): Promise<Array<{ memoryId: string; model: string }>> {
  const { rows } = await admin.query<{ memoryId: string; model: string }>(
    `SELECT r.memory_id AS "memoryId", v.model FROM ${schema}.engram_recall_vectors v
     JOIN ${schema}.engram_recall_rows r ON r.doc = v.doc ORDER BY v.doc`,
  );
  return rows;
}

async function embeddingOf(schema: string, memoryId: string): Promise<string | undefined> {
  const { rows } = await admin.query<{ embedding: string }>(
    `SELECT v.embedding::text AS embedding FROM ${schema}.engram_recall_vectors v
     JOIN ${schema}.engram_recall_rows r ON r.doc = v.doc WHERE r.memory_id = $1`,
    [memoryId],
  );
  return rows[0]?.embedding;
}

const WEBHOOKS = 'The billing service retries failed webhook deliveries three times';

describe('dense recall on PostgreSQL', () => {
  it("a write's vector is stored with it, and another process's dense channel finds it", async () => {
    const schema = `dense_${process.pid}_${++schemas}`;
    const a = await openEngine(schema);
    const b = await openEngine(schema);
    try {
      const { memory } = await a.call('remember', { content: WEBHOOKS });
      await a.call('remember', { content: 'Staging is reset every Monday morning' });
      const stored = await vectorsOf(schema);
      assert.ok(
        stored.some((v) => v.memoryId === memory.id && v.model.startsWith('use-lite')),
        JSON.stringify(stored),
      );
      // b wrote nothing and loads no index: its dense channel is PostgreSQL's.
      const found = await b.call('recall', { query: 'how often are webhooks retried', channels: ['dense'] });
      assert.equal(
        found.hits[0]?.memory.id,
        memory.id,
        JSON.stringify(found.hits.map((h) => h.memory.content)),
      );
      // Another agent's private memory is never a dense candidate of alice's recall.
      const secret = await b.call('remember', {
        content: 'Webhook signing secrets rotate every quarter',
        scope: 'private',
        actor: { agent: 'bob' },
      });
      const alice = await a.call('recall', {
        query: 'webhook secrets rotation',
        channels: ['dense'],
        actor: { agent: 'alice' },
      });
      assert.ok(!alice.hits.some((h) => h.memory.id === secret.memory.id));
      const bob = await a.call('recall', {
        query: 'webhook secrets rotation',
        channels: ['dense'],
        actor: { agent: 'bob' },
      });
      assert.equal(bob.hits[0]?.memory.id, secret.memory.id);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    // No index file is saved: the store ranks vectors (a file named after the URL was, once).
    assert.ok(!existsSync(path.join(process.cwd(), 'postgres:')));
  });

  it("an edit's new text is embedded in the background by a served write, seen by every process", async () => {
    const schema = `dense_${process.pid}_${++schemas}`;
    const a = await openEngine(schema);
    const b = await openEngine(schema);
    try {
      // Both load their model (and, without PostgreSQL's ranking, an index of what they hold now).
      for (const engine of [a, b]) await engine.call('recall', { query: 'warm up', channels: ['dense'] });
      await a.call('remember', { content: 'Webhook endpoints must answer within five seconds' });
      const { memory } = await a.call('remember', { content: 'Staging is reset every Monday morning' });
      const before = await embeddingOf(schema, memory.id);
      assert.ok(before !== undefined);
      // An edit stores its text without a vector: the background embedding writes it, journaled.
      await a.call('edit', { id: memory.id, changes: { content: WEBHOOKS } });
      let after = await embeddingOf(schema, memory.id);
      for (let i = 0; i < 300 && (after === undefined || after === before); i++) {
        await delay(100);
        after = await embeddingOf(schema, memory.id);
      }
      assert.ok(after !== undefined && after !== before, 'the new text has its vector in PostgreSQL');
      const found = await b.call('recall', { query: 'how often are webhooks retried', channels: ['dense'] });
      assert.ok(
        found.hits.some((h) => h.memory.id === memory.id),
        JSON.stringify(found.hits.map((h) => h.memory.content)),
      );
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
