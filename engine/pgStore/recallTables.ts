/**
 * PostgreSQL-native tables of what recall reads, beside the journal (pgJournal.ts): one row per
 * document of the engine's lexical index (a memory's current searchable text and the fields recall
 * filters on), the lexical statistics BM25 needs, and the embeddings. They are written from the
 * writer's replica in the same PostgreSQL transaction as the journal append (recallRowSync.ts), so
 * they never disagree with the journal, and read by recall's lexical and dense channels
 * (pgLexicalSearch.ts, pgVectorSearch.ts) instead of each process's sql.js copy.
 */

import { POSTINGS_TABLE } from './recallPostings';

/** Either a pg pool, one of its clients (inside a transaction), or a PGlite database. */
export interface Queryable {
  query<R extends object>(sql: string, params?: unknown[]): Promise<{ rows: R[] }>;
}

/** How embeddings are stored: pgvector's type where `CREATE EXTENSION vector` works, else real[]. */
export type VectorColumn = 'vector' | 'real[]';

/**
 * One row per document of the engine's lexical index: `terms` its distinct index terms (the
 * engine's own tokens, tokenizer.ts, so both stores agree exactly) and `tfs` their frequencies per
 * column (content, context, tags, entities), four per term in the terms' order, and `len0..len3`
 * the columns' lengths: what a rewrite subtracts from the statistics. Recall finds and scores
 * documents through their postings (recallPostings.ts), which carry the same counts. `status`,
 * `scope`, `agent`: the memory's current version, so the statuses recall asks for and the
 * visibility rule (memory/visibility.ts) are applied in SQL (the dense channel joins these rows).
 */
const ROWS = `
CREATE TABLE IF NOT EXISTS engram_recall_rows (
  doc integer PRIMARY KEY,
  memory_id text,
  content text,
  kind text,
  layer text,
  tags jsonb,
  scope text,
  agent text,
  status text,
  valid_from bigint,
  valid_to bigint,
  recorded_at bigint,
  terms text[] NOT NULL,
  tfs integer[] NOT NULL,
  len0 integer NOT NULL,
  len1 integer NOT NULL,
  len2 integer NOT NULL,
  len3 integer NOT NULL
)`;

const STATEMENTS = [
  ROWS,
  // The first layout found documents through a tsvector's GIN index: postings replaced it.
  'DROP INDEX IF EXISTS engram_recall_rows_lexemes',
  'ALTER TABLE engram_recall_rows DROP COLUMN IF EXISTS lexemes',
  POSTINGS_TABLE,
  'CREATE INDEX IF NOT EXISTS engram_recall_rows_memory ON engram_recall_rows (memory_id)',
  // Documents holding a term per column (0-3) and in any column (ANY_COLUMN): BM25's idf, and
  // which query terms are affordable (lexicalIndex.ts, MATCH_BUDGET).
  `CREATE TABLE IF NOT EXISTS engram_recall_terms (
     term text NOT NULL,
     col smallint NOT NULL,
     docs integer NOT NULL,
     PRIMARY KEY (term, col))`,
  // Tokens per column (0-3) and the number of documents (ROW_COUNT): FTS4's average lengths.
  'CREATE TABLE IF NOT EXISTS engram_recall_totals (col smallint PRIMARY KEY, total bigint NOT NULL)',
  // Which transaction the rows were first built at, per layout (a store older than the tables,
  // or than their layout, is built once).
  'CREATE TABLE IF NOT EXISTS engram_recall_meta (key text PRIMARY KEY, value text NOT NULL)',
];

/** engram_recall_terms.col of "in any column". */
export const ANY_COLUMN = 4;
/** engram_recall_totals.col holding the number of documents. */
export const ROW_COUNT = 4;

/**
 * Creates the tables if missing (inside the caller's transaction, holding the write lock) and
 * says how embeddings are kept. pgvector is used automatically when the server has it: the
 * extension is created in `public` (an extension is one per database, and every team's schema
 * reaches it through the search path) inside a savepoint, so a server without it, or a user
 * without the right to create it, leaves the transaction usable and falls back to real[].
 * An existing table keeps the type it was made with.
 */
export async function ensureRecallTables(db: Queryable): Promise<VectorColumn> {
  for (const statement of STATEMENTS) await db.query(statement);
  const existing = await db.query<{ udt: string }>(
    `SELECT udt_name AS udt FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = 'engram_recall_vectors' AND column_name = 'embedding'`,
  );
  const made = existing.rows[0]?.udt;
  if (made !== undefined) return made === 'vector' ? 'vector' : 'real[]';
  const column = (await pgvectorAvailable(db)) ? 'vector' : 'real[]';
  await db.query(
    `CREATE TABLE engram_recall_vectors (
       doc integer NOT NULL,
       model text NOT NULL,
       embedding ${column} NOT NULL,
       PRIMARY KEY (doc, model))`,
  );
  return column;
}

async function pgvectorAvailable(db: Queryable): Promise<boolean> {
  await db.query('SAVEPOINT engram_vector');
  try {
    const installed = await db.query('SELECT 1 FROM pg_extension WHERE extname = $1', ['vector']);
    if (installed.rows.length === 0) await db.query('CREATE EXTENSION IF NOT EXISTS vector SCHEMA public');
    await db.query("SELECT '[1]'::vector");
    await db.query('RELEASE SAVEPOINT engram_vector');
    return true;
  } catch {
    await db.query('ROLLBACK TO SAVEPOINT engram_vector');
    return false;
  }
}

/**
 * The layout of the tables: a store whose rows were built in another one (or never) is built again
 * whole at open. 2: postings (recallPostings.ts) in place of the first layout's tsvector.
 */
const BUILT_KEY = 'built_at_seq_2';

/** The transaction the rows were built at, or undefined for a store whose rows were never built. */
export async function rowsBuiltAt(db: Queryable): Promise<number | undefined> {
  const row = (
    await db.query<{ value: string }>('SELECT value FROM engram_recall_meta WHERE key = $1', [BUILT_KEY])
  ).rows[0];
  return row ? Number(row.value) : undefined;
}

/** Empties the tables before a whole build: the statistics move by difference from what is there. */
export async function clearRecallTables(db: Queryable): Promise<void> {
  await db.query(
    'TRUNCATE engram_recall_rows, engram_recall_postings, engram_recall_terms, engram_recall_totals, engram_recall_vectors',
  );
}

export async function markRowsBuilt(db: Queryable, seq: number): Promise<void> {
  await db.query(
    `INSERT INTO engram_recall_meta (key, value) VALUES ($1, $2)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
    [BUILT_KEY, String(seq)],
  );
}
