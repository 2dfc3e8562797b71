import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import { searchLexical } from '../../engine/lexical/lexicalIndex';
import { searchLexicalInPostgres } from '../../engine/pgStore/pgLexicalSearch';
import { searchVectorsInPostgres } from '../../engine/pgStore/pgVectorSearch';
import type { Queryable, VectorColumn } from '../../engine/pgStore/recallTables';
import { vectorToBlob } from '../../engine/vectors/vectorBlob';
import { seededRandom } from '../support/seededRandom';
import { startPostgres, testPool } from '../support/postgresServer';
import type { PostgresServer } from '../support/postgresServer';
import { copyIntoRecallTables, LABELLED, rememberLabelled, sqlJsHost } from './recallFixture';

/**
 * Recall's dense channel in PostgreSQL against real pgvector code (PGlite, PostgreSQL in WASM,
 * with its `vector` extension: Debian has no pgvector package) and the real[] fallback on a real
 * PostgreSQL 15 without it: both rank a sql.js store's vectors as exact cosine similarity does.
 */
const DIMENSION = 24;
const MODEL = 'test-model';

let postgres: PostgresServer;
let pglite: PGlite;
before(async () => {
  [postgres, pglite] = await Promise.all([startPostgres(), PGlite.create({ extensions: { vector } })]);
});
after(async () => {
  await Promise.all([postgres.stop(), pglite.close()]);
});

function unitVector(random: () => number): Float32Array {
  const v = Float32Array.from({ length: DIMENSION }, () => random() * 2 - 1);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(na * nb);
}

/** The labelled store with a vector per memory, copied into `db`; then its checks. */
async function checkStore(db: Queryable, expectedColumn: VectorColumn): Promise<void> {
  const local = await sqlJsHost();
  try {
    const labels = await rememberLabelled(local.call);
    const random = seededRandom(7);
    const vectors = new Map<string, Float32Array>();
    for (const id of labels.keys()) {
      const v = unitVector(random);
      vectors.set(id, v);
      local.write(
        "INSERT INTO memory_vectors (doc, model, content_hash, vector) SELECT doc, ?, 'h', ? FROM memory_docs WHERE memory_id = ?",
        [MODEL, vectorToBlob(v), id],
      );
    }
    const secret = await local.call('remember', {
      content: 'Private notes of bob',
      scope: 'private',
      actor: { agent: 'bob' },
    });
    const secretVector = unitVector(random);
    local.write(
      "INSERT INTO memory_vectors (doc, model, content_hash, vector) SELECT doc, ?, 'h', ? FROM memory_docs WHERE memory_id = ?",
      [MODEL, vectorToBlob(secretVector), secret.memory.id],
    );
    assert.equal(await copyIntoRecallTables(db, local.read), expectedColumn);

    for (let q = 0; q < 5; q++) {
      const query = unitVector(random);
      const expected = [...vectors]
        .map(([memoryId, v]) => ({ memoryId, score: cosine(query, v) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, 5);
      const got = await searchVectorsInPostgres(db, expectedColumn, MODEL, query, 5, ['active'], 'alice');
      assert.deepEqual(
        got.map((h) => h.memoryId),
        expected.map((h) => h.memoryId),
      );
      for (const [i, hit] of got.entries()) assert.ok(Math.abs(hit.score - expected[i]!.score) < 1e-5);
    }
    // Visibility in the SQL: bob's own vector is his nearest; alice never gets it.
    const own = await searchVectorsInPostgres(db, expectedColumn, MODEL, secretVector, 1, ['active'], 'bob');
    assert.deepEqual(
      own.map((h) => h.memoryId),
      [secret.memory.id],
    );
    const other = await searchVectorsInPostgres(
      db,
      expectedColumn,
      MODEL,
      secretVector,
      50,
      ['active'],
      'alice',
    );
    assert.ok(!other.some((h) => h.memoryId === secret.memory.id));
    // Another model's vectors are never compared.
    assert.deepEqual(
      await searchVectorsInPostgres(db, expectedColumn, 'other', secretVector, 5, ['active'], undefined),
      [],
    );
    // The lexical SQL runs on this server too, as sql.js ranks.
    for (const { query } of LABELLED) {
      const lexical = await searchLexicalInPostgres(db, query, 10, ['active'], undefined);
      const expected = local.read((r) => searchLexical(r, query, 10, ['active']));
      assert.deepEqual(
        lexical.map((h) => h.memoryId),
        expected.map((h) => h.memoryId),
        query,
      );
    }
  } finally {
    await local.close();
  }
}

describe('dense recall in PostgreSQL', () => {
  it('pgvector (PGlite with its vector extension): nearest by <=>, as exact cosine ranks', async () => {
    await checkStore(pglite, 'vector');
  });

  it('without pgvector (PostgreSQL 15): a real[] column ranked in SQL, the same order', async () => {
    const pool = testPool(postgres.url());
    // One connection throughout: the pool drops a connection whose query failed (the savepoint's).
    const client = await pool.connect();
    try {
      await checkStore(client, 'real[]');
    } finally {
      client.release();
      await pool.end();
    }
  });
});
