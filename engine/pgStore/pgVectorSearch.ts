import type { Viewer } from '../memory/visibility';
import { vectorLiteral } from './recallRowSync';
import type { Queryable, VectorColumn } from './recallTables';

/**
 * Recall's dense channel in PostgreSQL: the memories whose embedding of `model` is closest to
 * `vector` by cosine similarity, best first, with the score the engine's own index gives
 * (1 - cosine distance). With pgvector, its `<=>` operator ranks in C; without it, the real[]
 * column is ranked in SQL (exact, a full scan: a server without pgvector pays for it on every
 * query). Statuses and visibility are applied in the same query, as the lexical channel does.
 */
export async function searchVectorsInPostgres(
  db: Queryable,
  column: VectorColumn,
  model: string,
  vector: Float32Array,
  limit: number,
  /** Undefined: any status (a write's neighbours, near-duplicates and surprise). */
  statuses: readonly string[] | undefined,
  viewer: Viewer,
): Promise<Array<{ memoryId: string; score: number }>> {
  if (limit <= 0) return [];
  const similarity =
    column === 'vector'
      ? '1 - (v.embedding <=> $2::vector)'
      : // Cosine over arrays: the dot product over both norms, 0 for a zero vector as pgvector's NaN is excluded.
        `(SELECT CASE WHEN sqrt(sum(a * a)) * sqrt(sum(b * b)) = 0 THEN NULL
           ELSE sum(a * b) / (sqrt(sum(a * a)) * sqrt(sum(b * b))) END
         FROM unnest(v.embedding, $2::real[]) AS e(a, b))`;
  const result = await db.query<{ memoryId: string; score: number }>(
    `SELECT memory_id AS "memoryId", score FROM (
       SELECT r.memory_id, r.doc, ${similarity} AS score
       FROM engram_recall_vectors v JOIN engram_recall_rows r ON r.doc = v.doc
       WHERE v.model = $1 AND ($3::text[] IS NULL OR r.status = ANY($3::text[]))
         AND ($5::text IS NULL OR r.scope <> 'private' OR r.agent IS NOT DISTINCT FROM $5::text)
     ) ranked
     WHERE score IS NOT NULL AND score = score
     ORDER BY score DESC, doc
     LIMIT $4`,
    [model, vectorLiteral(vector, column), statuses ?? null, limit, viewer ?? null],
  );
  return result.rows.map((row) => ({ memoryId: row.memoryId, score: Number(row.score) }));
}
