import { simpleTokens } from '../lexical/invertedIndex';
import { allForIds } from '../store/idLists';
import type { SqlReader } from '../store/sqlAccess';
import { vectorFromBlob } from '../vectors/vectorBlob';
import { deletePostings, insertPostings } from './recallPostings';
import { ANY_COLUMN, ROW_COUNT } from './recallTables';
import type { Queryable, VectorColumn } from './recallTables';

/**
 * Copies documents of the lexical index, as the writer's replica holds them after its write, into
 * PostgreSQL's recall tables (recallTables.ts), inside the transaction that appends the write's
 * records. The replica is the one place the engine's write rules run, so the rows are derived
 * from it rather than written a second time by every method; a document the replica no longer
 * has is deleted. The statistics (documents per term and column, tokens per column) move by the
 * difference between each document's old and new row, so no write reads the whole table.
 */

/** What changed in the replica during one call: rowids per table, from SQLite's update hook. */
export interface ReplicaChanges {
  /** memory_fts_content rowids: document numbers. */
  readonly lexical: ReadonlySet<number>;
  readonly memories: ReadonlySet<number>;
  readonly vectors: ReadonlySet<number>;
}

/** Documents per PostgreSQL statement: bounded parameters, bounded memory. */
const BATCH = 500;

/** A document as the replica holds it: its index text per column and its memory's current row. */
interface SourceRow {
  doc: number;
  memoryId: string | null;
  c0: string | null;
  c1: string | null;
  c2: string | null;
  c3: string | null;
  content: string | null;
  kind: string | null;
  layer: string | null;
  tags: string | null;
  scope: string | null;
  agent: string | null;
  status: string | null;
  validFrom: number | null;
  validTo: number | null;
  recordedAt: number | null;
}

const SOURCE = `SELECT f.docid AS doc, d.memory_id AS memoryId,
    f.c0content AS c0, f.c1context AS c1, f.c2tags AS c2, f.c3entities AS c3,
    m.content AS content, m.kind AS kind, m.layer AS layer, m.tags AS tags, m.scope AS scope,
    m.agent AS agent, m.status AS status, m.valid_from AS validFrom, m.valid_to AS validTo,
    m.recorded_at AS recordedAt
  FROM memory_fts_content f LEFT JOIN memory_docs d ON d.doc = f.docid
  LEFT JOIN memories m ON m.id = d.memory_id AND m.superseded_at IS NULL`;

/** The documents a call's changes touch: its lexical rows, and those of the memories it changed. */
export function changedDocuments(reader: SqlReader, changes: ReplicaChanges): number[] {
  const docs = new Set(changes.lexical);
  const viaMemories = allForIds<{ doc: number }>(
    reader,
    (marks) =>
      `SELECT d.doc AS doc FROM memories m JOIN memory_docs d ON d.memory_id = m.id WHERE m.rowid IN (${marks})`,
    [...changes.memories],
  );
  for (const row of viaMemories) docs.add(row.doc);
  // A deleted vector's row is gone: only vectors written (a new embedding) are found here.
  const viaVectors = allForIds<{ doc: number }>(
    reader,
    (marks) => `SELECT doc FROM memory_vectors WHERE rowid IN (${marks})`,
    [...changes.vectors],
  );
  for (const row of viaVectors) docs.add(row.doc);
  return [...docs].sort((a, b) => a - b);
}

/** Every document of the replica's lexical index (building the rows of an existing store). */
export function allDocuments(reader: SqlReader): number[] {
  return reader
    .all<{ doc: number }>('SELECT docid AS doc FROM memory_fts_content ORDER BY docid')
    .map((r) => r.doc);
}

/** Reads the replica synchronously (its read transaction does not span an await). */
export type ReplicaRead = <T>(fn: (reader: SqlReader) => T) => T;

/** Writes `docs` as the replica holds them now; `column`: how this store keeps embeddings. */
export async function syncRecallRows(
  db: Queryable,
  read: ReplicaRead,
  docs: readonly number[],
  column: VectorColumn,
): Promise<void> {
  for (let i = 0; i < docs.length; i += BATCH) {
    const slice = docs.slice(i, i + BATCH);
    const rows = read((r) =>
      allForIds<SourceRow>(r, (marks) => `${SOURCE} WHERE f.docid IN (${marks})`, slice),
    );
    const vectors = read((r) =>
      allForIds<VectorRow>(
        r,
        (marks) => `SELECT doc, model, vector FROM memory_vectors WHERE doc IN (${marks})`,
        slice,
      ),
    );
    await syncRows(db, slice, rows.map(indexedRow));
    await syncVectors(db, slice, vectors, column);
  }
}

interface VectorRow {
  doc: number;
  model: string;
  vector: Uint8Array;
}

/** A document's row as PostgreSQL keeps it, with its index terms counted per column. */
interface IndexedRow {
  source: SourceRow;
  counts: Map<string, number[]>;
  lengths: number[];
}

function indexedRow(source: SourceRow): IndexedRow {
  const counts = new Map<string, number[]>();
  const lengths = [source.c0, source.c1, source.c2, source.c3].map((text, column) => {
    // The tokens FTS4's simple tokenizer sees in the stored column text, as the in-memory index counts them.
    const tokens = text ? simpleTokens(text) : [];
    for (const token of tokens) {
      let perColumn = counts.get(token);
      if (!perColumn) counts.set(token, (perColumn = [0, 0, 0, 0]));
      perColumn[column]!++;
    }
    return tokens.length;
  });
  return { source, counts, lengths };
}

/** What a document adds to (sign 1) or takes from (-1) the statistics. */
class StatisticsDelta {
  readonly terms = new Map<string, number>();
  readonly totals = [0, 0, 0, 0, 0];

  add(counts: Iterable<[string, ArrayLike<number>]>, lengths: ArrayLike<number>, sign: 1 | -1): void {
    for (const [term, perColumn] of counts) {
      for (let c = 0; c < 4; c++) if ((perColumn[c] ?? 0) > 0) this.bump(term, c, sign);
      this.bump(term, ANY_COLUMN, sign);
    }
    for (let c = 0; c < 4; c++) this.totals[c]! += sign * (lengths[c] ?? 0);
    this.totals[ROW_COUNT]! += sign;
  }

  private bump(term: string, column: number, sign: number): void {
    const key = `${column}\u0000${term}`;
    this.terms.set(key, (this.terms.get(key) ?? 0) + sign);
  }
}

interface StoredRow {
  doc: number;
  terms: string[];
  tfs: number[];
  len0: number;
  len1: number;
  len2: number;
  len3: number;
}

async function syncRows(db: Queryable, docs: readonly number[], rows: IndexedRow[]): Promise<void> {
  const delta = new StatisticsDelta();
  const old = await db.query<StoredRow>(
    'SELECT doc, terms, tfs, len0, len1, len2, len3 FROM engram_recall_rows WHERE doc = ANY($1::integer[])',
    [docs],
  );
  for (const row of old.rows)
    delta.add(
      row.terms.map((term, i): [string, number[]] => [term, row.tfs.slice(4 * i, 4 * i + 4)]),
      [row.len0, row.len1, row.len2, row.len3],
      -1,
    );
  for (const row of rows) delta.add(row.counts, row.lengths, 1);
  await db.query('DELETE FROM engram_recall_rows WHERE doc = ANY($1::integer[])', [docs]);
  await deletePostings(db, old.rows);
  if (rows.length > 0) {
    await insertRows(db, rows);
    await insertPostings(
      db,
      rows.map(({ source, counts, lengths }) => ({
        doc: source.doc,
        counts,
        lengths,
        status: source.status,
        scope: source.scope,
        agent: source.agent,
      })),
    );
  }
  await applyDelta(db, delta);
}

async function insertRows(db: Queryable, rows: IndexedRow[]): Promise<void> {
  const column = <T>(pick: (row: IndexedRow) => T): T[] => rows.map(pick);
  await db.query(
    `INSERT INTO engram_recall_rows (doc, memory_id, content, kind, layer, tags, scope, agent, status,
       valid_from, valid_to, recorded_at, terms, tfs, len0, len1, len2, len3)
     SELECT doc, memory_id, content, kind, layer, tags::jsonb, scope, agent, status,
       valid_from, valid_to, recorded_at, terms::text[], tfs::integer[],
       len0, len1, len2, len3
     FROM unnest($1::integer[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
       $8::text[], $9::text[], $10::bigint[], $11::bigint[], $12::bigint[], $13::text[], $14::text[],
       $15::integer[], $16::integer[], $17::integer[], $18::integer[])
       AS t(doc, memory_id, content, kind, layer, tags, scope, agent, status, valid_from, valid_to,
         recorded_at, terms, tfs, len0, len1, len2, len3)`,
    [
      column((r) => r.source.doc),
      column((r) => r.source.memoryId),
      column((r) => r.source.content),
      column((r) => r.source.kind),
      column((r) => r.source.layer),
      column((r) => r.source.tags),
      column((r) => r.source.scope),
      column((r) => r.source.agent),
      column((r) => r.source.status),
      column((r) => r.source.validFrom),
      column((r) => r.source.validTo),
      column((r) => r.source.recordedAt),
      // Array literals, each term quoted (a term "null" is not NULL); index terms hold only
      // letters and digits (tokenizer.ts), so nothing in them needs escaping.
      column((r) => `{${[...r.counts.keys()].map((term) => `"${term}"`).join(',')}}`),
      column((r) => `{${[...r.counts.values()].flat().join(',')}}`),
      ...[0, 1, 2, 3].map((c) => column((r) => r.lengths[c]!)),
    ],
  );
}

async function applyDelta(db: Queryable, delta: StatisticsDelta): Promise<void> {
  const changed = [...delta.terms].filter(([, n]) => n !== 0);
  if (changed.length > 0) {
    const columns = changed.map(([key]) => Number(key.slice(0, key.indexOf('\u0000'))));
    const terms = changed.map(([key]) => key.slice(key.indexOf('\u0000') + 1));
    await db.query(
      `INSERT INTO engram_recall_terms (term, col, docs)
       SELECT * FROM unnest($1::text[], $2::smallint[], $3::integer[])
       ON CONFLICT (term, col) DO UPDATE SET docs = engram_recall_terms.docs + EXCLUDED.docs`,
      [terms, columns, changed.map(([, n]) => n)],
    );
    await db.query('DELETE FROM engram_recall_terms WHERE term = ANY($1::text[]) AND docs <= 0', [terms]);
  }
  await db.query(
    `INSERT INTO engram_recall_totals (col, total) SELECT * FROM unnest($1::smallint[], $2::bigint[])
     ON CONFLICT (col) DO UPDATE SET total = engram_recall_totals.total + EXCLUDED.total`,
    [[0, 1, 2, 3, ROW_COUNT], delta.totals],
  );
}

async function syncVectors(
  db: Queryable,
  docs: readonly number[],
  rows: VectorRow[],
  column: VectorColumn,
): Promise<void> {
  await db.query('DELETE FROM engram_recall_vectors WHERE doc = ANY($1::integer[])', [docs]);
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO engram_recall_vectors (doc, model, embedding)
     SELECT doc, model, embedding::${column === 'vector' ? 'vector' : 'real[]'}
     FROM unnest($1::integer[], $2::text[], $3::text[]) AS t(doc, model, embedding)`,
    [
      rows.map((r) => r.doc),
      rows.map((r) => r.model),
      rows.map((r) => vectorLiteral(vectorFromBlob(r.vector), column)),
    ],
  );
}

/** A vector as pgvector's text input (`[1,2]`) or an array's (`{1,2}`). */
export function vectorLiteral(vector: Float32Array, column: VectorColumn): string {
  const values = Array.from(vector).join(',');
  return column === 'vector' ? `[${values}]` : `{${values}}`;
}
