import { BM25_B, BM25_K1, fts4AverageLength, idf } from '../lexical/bm25';
import { affordableWithin, LEXICAL_WEIGHTS, MAX_QUERY_TERMS } from '../lexical/lexicalIndex';
import type { LexicalHit } from '../lexical/lexicalIndex';
import { queryTerms } from '../lexical/tokenizer';
import type { Viewer } from '../memory/visibility';
import { ANY_COLUMN, ROW_COUNT } from './recallTables';
import type { Queryable } from './recallTables';

/**
 * Recall's lexical channel in PostgreSQL: the postings of the query's terms (recallPostings.ts,
 * one range of the primary key per term, read from the index alone) are scored in SQL with the
 * engine's BM25 (bm25.ts: per column, idf from the column's document frequency, length
 * normalised by FTS4's rounded average), from the statistics kept with every write, summed per
 * document, and the top `limit` kept. So the team server ranks as a sql.js store does: the same
 * candidates, the same scores (up to the order floating-point sums are added in), which
 * PostgreSQL's own ts_rank would not give. The statuses recall asks for and the visibility rule
 * are conditions on the postings, so a hidden memory never takes a candidate's place.
 */
export async function searchLexicalInPostgres(
  db: Queryable,
  query: string,
  limit: number,
  statuses: readonly string[],
  viewer: Viewer,
  /** Told the journal's newest transaction as the statistics' statement saw it (pgJournal.ts). */
  journalSeen?: (seq: number) => void,
): Promise<LexicalHit[]> {
  const all = queryTerms(query).slice(0, MAX_QUERY_TERMS);
  if (all.length === 0 || limit <= 0) return [];
  const stats = await statistics(db, all, journalSeen !== undefined);
  if (stats.journalSeq !== undefined) journalSeen?.(stats.journalSeq);
  const rows = stats.totals.get(ROW_COUNT) ?? 0;
  if (rows <= 0) return [];
  const terms = affordableWithin(all, stats.maxDoc, (term) => stats.docs.get(`${ANY_COLUMN} ${term}`) ?? 0);
  const k1 = BM25_K1;
  // Per term, per column: the factor bm25.ts multiplies a column's saturated frequency by (0
  // where no document holds the term in that column: it adds nothing there).
  const factors = [0, 1, 2, 3].map((c) =>
    terms.map((term) => {
      const docs = stats.docs.get(`${c} ${term}`) ?? 0;
      return docs === 0 ? 0 : LEXICAL_WEIGHTS[c]! * idf(rows, docs) * (k1 + 1);
    }),
  );
  if (factors.every((column) => column.every((f) => f === 0))) return [];
  // Per column, what a token of the document's length adds to the saturation: a column no query
  // term occurs in gets 0 (its factors are 0, so its part is exactly 0 and changes no sum).
  const perToken = factors.map((column, c) =>
    column.every((f) => f === 0) ? 0 : (k1 * BM25_B) / fts4AverageLength(stats.totals.get(c) ?? 0, rows),
  );
  // One term (the budget often keeps only the rarest): a document has one posting, so no
  // grouping: the top rows straight from the index range (~40% less of the server's time for a
  // term in 8,600 documents at 100,000). Each shape is one fixed text, so the pool prepares it
  // once per connection (PgJournal.reading) and PostgreSQL plans it once.
  const result = await db.query<{ memoryId: string; doc: number; score: number }>(
    terms.length === 1 ? SEARCH_ONE_TERM : SEARCH_TERMS,
    [terms, ...factors, statuses, limit, k1 * (1 - BM25_B), ...perToken, viewer ?? null],
  );
  return result.rows.map((row) => ({ memoryId: row.memoryId, doc: row.doc, score: Number(row.score) }));
}

/** BM25 of one posting: the four columns' parts, in bm25.ts's order (sums added as it adds them). */
const POSTING_SCORE = [0, 1, 2, 3]
  .map((c) => `q.f${c} * p.tf${c} / (p.tf${c} + $8::float8 + $${9 + c}::float8 * p.len${c})`)
  .join(' + ');

/**
 * The search, in two shapes: summed per document (several terms) or not (one term). $1 terms,
 * $2-$5 their factors per column, $6 statuses, $7 limit, $8 k1 (1 - b), $9-$12 per-token
 * length factors, $13 the viewer (null: every memory; else shared ones and the viewer's private
 * ones, memory/visibility.ts).
 */
const search = (grouped: boolean): string => `SELECT r.memory_id AS "memoryId", s.doc, s.score FROM (
   SELECT p.doc, ${grouped ? 'sum' : ''}(${POSTING_SCORE}) AS score
   FROM unnest($1::text[], $2::float8[], $3::float8[], $4::float8[], $5::float8[]) AS q(term, f0, f1, f2, f3)
   JOIN engram_recall_postings p ON p.term = q.term
   WHERE p.status = ANY($6::text[]) AND ($13::text IS NULL OR NOT p.private OR p.agent = $13::text)
   ${grouped ? 'GROUP BY p.doc' : ''}
   ORDER BY score DESC, p.doc
   LIMIT $7
 ) s JOIN engram_recall_rows r ON r.doc = s.doc
 ORDER BY s.score DESC, s.doc`;
const SEARCH_TERMS = search(true);
const SEARCH_ONE_TERM = search(false);

interface Statistics {
  /** `${column} ${term}` -> documents holding the term there (ANY_COLUMN: anywhere). */
  docs: Map<string, number>;
  /** Tokens per column, and ROW_COUNT: the documents. */
  totals: Map<number, number>;
  maxDoc: number;
  /** The journal's newest transaction, when asked for. */
  journalSeq?: number;
}

const STATISTICS = `SELECT 'term' AS kind, term, col, docs::bigint AS n FROM engram_recall_terms WHERE term = ANY($1::text[])
   UNION ALL SELECT 'total', NULL, col, total FROM engram_recall_totals
   UNION ALL SELECT 'max', NULL, 0, coalesce(max(doc), 0)::bigint FROM engram_recall_rows`;
/**
 * With the journal's position: in the same statement, so in the same snapshot as the search's
 * statistics. A recall that arrives after a write's COMMIT sees at least that write's number,
 * and the engine knows whether its replica was behind (replicatedEngine.ts), with no round trip
 * of its own.
 */
const STATISTICS_AND_JOURNAL = `${STATISTICS}
   UNION ALL SELECT 'seq', NULL, 0, coalesce(max(seq), 0)::bigint FROM engram_journal`;

async function statistics(
  db: Queryable,
  terms: readonly string[],
  withJournal: boolean,
): Promise<Statistics> {
  const result = await db.query<{ kind: string; term: string | null; col: number; n: string | number }>(
    withJournal ? STATISTICS_AND_JOURNAL : STATISTICS,
    [terms],
  );
  const stats: Statistics = { docs: new Map(), totals: new Map(), maxDoc: 0 };
  for (const row of result.rows) {
    const n = Number(row.n);
    if (row.kind === 'term') stats.docs.set(`${row.col} ${row.term}`, n);
    else if (row.kind === 'total') stats.totals.set(Number(row.col), n);
    else if (row.kind === 'seq') stats.journalSeq = n;
    else stats.maxDoc = n;
  }
  return stats;
}
