import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type pg from 'pg';
import { Engram } from '../../engine/engram';
import { resolveDefaultModelAssets } from '../../engine/embedding/useLiteAssets';
import { decodeRecord } from '../../engine/store/statementLog';
import { startPostgres, testPool } from '../support/postgresServer';
import type { PostgresServer } from '../support/postgresServer';
import { SQL_WASM_PATH, tempDir } from '../support/temp';

/**
 * Two server processes on one PostgreSQL store drain the embedding backlog (memories without a
 * vector) together: each batch is claimed (storeClaims.ts) before it is embedded, so no memory is
 * embedded twice. The embeddings are counted where they land: the vector rows written by the
 * journal's records. USE-lite, the model the package ships; a real PostgreSQL 15.
 */
let postgres: PostgresServer;
let admin: pg.Pool;
before(async () => {
  postgres = await startPostgres();
  admin = testPool(postgres.url());
});
after(async () => {
  await admin.end();
  await postgres.stop();
});

/** Six batches of the background embedding (SYNC_BATCH, memoryVectors.ts). */
const BACKLOG = 6 * 64;

function openEngine(schema: string, withModel: boolean): Promise<Engram> {
  return Engram.open({
    dbPath: path.join(tempDir('engram-pgclaims-'), 'memory.db'),
    store: postgres.url(),
    storeSchema: schema,
    sqlWasmPath: SQL_WASM_PATH,
    ...(withModel
      ? { embedding: { kind: 'use-lite' as const, assets: resolveDefaultModelAssets(require.resolve) } }
      : {}),
  });
}

async function vectorCount(schema: string): Promise<number> {
  const { rows } = await admin.query<{ n: string }>(
    `SELECT count(*) AS n FROM ${schema}.engram_recall_vectors`,
  );
  return Number(rows[0]?.n ?? 0);
}

/** Vector rows written by every record of the journal: one per memory embedded and stored. */
async function vectorWrites(schema: string): Promise<number> {
  const { rows } = await admin.query<{ record: Buffer }>(`SELECT record FROM ${schema}.engram_journal`);
  let written = 0;
  for (const row of rows)
    for (const [sql, params] of decodeRecord(row.record).statements)
      if (/INTO memory_vectors/.test(sql))
        written += Math.max(1, (Array.isArray(params) ? params.length : 0) / 4);
  return written;
}

describe('the embedding backlog on PostgreSQL', () => {
  it('two processes draining it at once embed each memory once', async () => {
    const schema = `claims_${process.pid}`;
    // The backlog: memories written by a process without a model (as an import or a model change leaves them).
    const writer = await openEngine(schema, false);
    await writer.call('rememberMany', {
      memories: Array.from({ length: BACKLOG }, (_, i) => ({
        content: `Service ${i} reads its ${['cache', 'queue', 'router'][i % 3]} settings from config ${i % 7}`,
      })),
    });
    await writer.close();
    assert.equal(await vectorWrites(schema), 0);
    // Both load the model at open and drain the backlog from then on.
    const [a, b] = await Promise.all([openEngine(schema, true), openEngine(schema, true)]);
    try {
      await Promise.all(
        [a, b].map((engine) => engine.call('recall', { query: 'warm up', channels: ['dense'] })),
      );
      const deadline = Date.now() + 180_000;
      while ((await vectorCount(schema)) < BACKLOG) {
        if (Date.now() > deadline) assert.fail(`the backlog was not embedded: ${await vectorCount(schema)}`);
        await delay(100);
      }
      // Negative check: a batch the other process embedded meanwhile would land within this.
      await delay(3000);
      assert.equal(await vectorWrites(schema), BACKLOG, 'each memory embedded once');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
