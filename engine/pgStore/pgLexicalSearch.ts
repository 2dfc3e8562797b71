import { BM25_B, BM25_K1, fts4AverageLength, idf } from '../lexical/bm25';
import { affordableWithin, LEXICAL_WEIGHTS, MAX_QUERY_TERMS } from '../lexical/lexicalIndex';
import type { LexicalHit } from '../lexical/lexicalIndex';
import { queryTerms } from '../lexical/tokenizer';
import type { Viewer } from '../memory/visibility';
import { ANY_COLUMN, ROW_COUNT } from './recallTables';
import type { Queryable } from './recallTables';

/**
 * Recall's lexical channel in PostgreSQL: the documents matching any query term are found through
 * the GIN index on `lexemes` (full-text search, `@@` a tsquery of the engine's own terms) and
 * scored in SQL with the engine's BM25 (bm25.ts: per column, idf from the column's document
 * frequency, length normalised by FTS4's rounded average), from the statistics kept with every
 * write. So the team server ranks as a sql.js store does: the same candidates, the same scores (up
 * to the order floating-point sums are added in), which PostgreSQL's own ts_rank would not give.
 * The statuses recall asks for and the visibility rule are conditions of the same query, so a
 * hidden memory never takes a candidate's place.
 */
export async function searchLexicalInPostgres(
  db: Queryable,
  query: string,
  limit: number,
  statuses: readonly string[],
  viewer: Viewer,
): Promise<LexicalHit[]> {
  const all = queryTerms(query).slice(0, MAX_QUERY_TERMS);
  if (all.length === 0 || limit <= 0) return [];
  const stats = await statistics(db, all);
  const rows = stats.totals.get(ROW_COUNT) ?? 0;
  if (rows <= 0) return [];
  const terms = affordableWithin(all, stats.maxDoc, (term) => stats.docs.get(`${ANY_COLUMN} ${term}`) ?? 0);
  const k1 = BM25_K1;
  // Per term and column: weight x idf x (k1 + 1), as the in-memory index computes its factor.
  const factors = [0, 1, 2, 3].map((c) =>
    terms.map((term) => {
      const docs = stats.docs.get(`${c} ${term}`) ?? 0;
      return docs === 0 ? 0 : LEXICAL_WEIGHTS[c]! * idf(rows, docs) * (k1 + 1);
    }),
  );
  const perToken = [0, 1, 2, 3].map((c) => (k1 * BM25_B) / fts4AverageLength(stats.totals.get(c) ?? 0, rows));
  const visible =
    viewer === undefined ? '' : "AND (r.scope <> 'private' OR r.agent IS NOT DISTINCT FROM $11)";
  const tf = (c: number) => `(r.term_counts->q.term->>${c})::float8`;
  const contribution = (c: number) =>
    `coalesce(q.f${c} * ${tf(c)} / (${tf(c)} + $9::float8 + ($10::float8[])[${c + 1}] * r.len${c}), 0)`;
  const result = await db.query<{ memoryId: string; doc: number; score: number }>(
    `SELECT r.memory_id AS "memoryId", r.doc AS doc, s.score AS score
     FROM engram_recall_rows r
     CROSS JOIN LATERAL (
       SELECT sum(${[0, 1, 2, 3].map(contribution).join(' + ')}) AS score
       FROM unnest($2::text[], $3::float8[], $4::float8[], $5::float8[], $6::float8[]) AS q(term, f0, f1, f2, f3)
       WHERE r.term_counts ? q.term
     ) s
     WHERE r.lexemes @@ $1::tsquery AND r.status = ANY($7::text[]) ${visible}
     ORDER BY s.score DESC, r.doc
     LIMIT $8`,
    [
      tsquery(terms),
      terms,
      ...factors,
      statuses,
      limit,
      k1 * (1 - BM25_B),
      perToken,
      ...(viewer === undefined ? [] : [viewer]),
    ],
  );
  return result.rows.map((row) => ({ memoryId: row.memoryId, doc: row.doc, score: Number(row.score) }));
}

/** `'a' | 'b'`: any of the terms (they hold only letters and digits; quoted all the same). */
function tsquery(terms: readonly string[]): string {
  return terms.map((term) => `'${term.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`).join(' | ');
}

interface Statistics {
  /** `${column} ${term}` -> documents holding the term there (ANY_COLUMN: anywhere). */
  docs: Map<string, number>;
  /** Tokens per column, and ROW_COUNT: the documents. */
  totals: Map<number, number>;
  maxDoc: number;
}

async function statistics(db: Queryable, terms: readonly string[]): Promise<Statistics> {
  const result = await db.query<{ kind: string; term: string | null; col: number; n: string | number }>(
    `SELECT 'term' AS kind, term, col, docs::bigint AS n FROM engram_recall_terms WHERE term = ANY($1::text[])
     UNION ALL SELECT 'total', NULL, col, total FROM engram_recall_totals
     UNION ALL SELECT 'max', NULL, 0, coalesce(max(doc), 0)::bigint FROM engram_recall_rows`,
    [terms],
  );
  const stats: Statistics = { docs: new Map(), totals: new Map(), maxDoc: 0 };
  for (const row of result.rows) {
    const n = Number(row.n);
    if (row.kind === 'term') stats.docs.set(`${row.col} ${row.term}`, n);
    else if (row.kind === 'total') stats.totals.set(Number(row.col), n);
    else stats.maxDoc = n;
  }
  return stats;
}
