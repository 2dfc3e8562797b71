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
  const params: unknown[] = [tsquery(terms), statuses, limit, k1 * (1 - BM25_B)];
  const param = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  // Each query term's place in the row's `terms` (null when absent): its counts are tfs[4p-3..4p].
  const places = terms.map((term, i) => `array_position(r.terms, ${param(term)}::text) AS p${i}`);
  // Summed column by column, term by term, as the in-memory index adds (invertedIndex.ts), with
  // the same factors computed here: the same doubles, so the same scores. A term or column that
  // cannot score is left out of the SQL.
  const parts: string[] = [];
  for (let c = 0; c < 4; c++) {
    let perToken: string | undefined;
    for (const [i, term] of terms.entries()) {
      const docs = stats.docs.get(`${c} ${term}`) ?? 0;
      if (docs === 0) continue;
      // A parameter PostgreSQL would not see used could not be typed: bound on first use.
      perToken ??= param((k1 * BM25_B) / fts4AverageLength(stats.totals.get(c) ?? 0, rows));
      const factor = param(LEXICAL_WEIGHTS[c]! * idf(rows, docs) * (k1 + 1));
      const tf = `r.tfs[4 * p.p${i} - ${3 - c}]`;
      parts.push(
        `coalesce(${factor}::float8 * ${tf} / (${tf} + $4::float8 + ${perToken}::float8 * r.len${c}), 0)`,
      );
    }
  }
  if (parts.length === 0) return [];
  const visible =
    viewer === undefined ? '' : `AND (r.scope <> 'private' OR r.agent IS NOT DISTINCT FROM ${param(viewer)})`;
  const result = await db.query<{ memoryId: string; doc: number; score: number }>(
    `SELECT r.memory_id AS "memoryId", r.doc AS doc, ${parts.join(' + ')} AS score
     FROM engram_recall_rows r CROSS JOIN LATERAL (SELECT ${places.join(', ')}) p
     WHERE r.lexemes @@ $1::tsquery AND r.status = ANY($2::text[]) ${visible}
     ORDER BY score DESC, r.doc
     LIMIT $3`,
    params,
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
