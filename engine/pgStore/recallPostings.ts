import type { Queryable } from './recallTables';

/**
 * The postings of recall's lexical index in PostgreSQL: one row per (term, document) with the
 * term's count in each column and what scoring and filtering need of the document (its column
 * lengths, status and visibility), so a query term's documents are one range of the primary key,
 * read from the index alone (its INCLUDE columns), with no visit to the documents' rows.
 * Measured at 100,000 memories: a GIN match then one heap page per matching row cost ~6 ms of
 * the server's CPU for a term in 1,000 documents; the range costs ~1 ms (docs/team-server.md).
 * Kept with engram_recall_rows (recallRowSync.ts): a document's postings are deleted and written
 * again whenever its row is, in the same transaction.
 */
export const POSTINGS_TABLE = `
CREATE TABLE IF NOT EXISTS engram_recall_postings (
  term text NOT NULL,
  doc integer NOT NULL,
  tf0 integer NOT NULL,
  tf1 integer NOT NULL,
  tf2 integer NOT NULL,
  tf3 integer NOT NULL,
  len0 integer NOT NULL,
  len1 integer NOT NULL,
  len2 integer NOT NULL,
  len3 integer NOT NULL,
  status text,
  private boolean NOT NULL,
  agent text,
  PRIMARY KEY (term, doc) INCLUDE (tf0, tf1, tf2, tf3, len0, len1, len2, len3, status, private, agent)
)`;

/** A document's postings as recallRowSync.ts knows them. */
export interface PostingSource {
  doc: number;
  /** term -> its count in each of the four columns. */
  counts: ReadonlyMap<string, readonly number[]>;
  lengths: readonly number[];
  status: string | null;
  scope: string | null;
  agent: string | null;
}

/**
 * `private`: the memory is hidden from every viewer but its agent. A memory without a scope
 * counts as private, as memory/visibility.ts's SQL (`scope <> 'private' OR agent IS ?`) treats it;
 * `agent` is kept only for private memories (the others need none, and it is the widest column).
 */
function isPrivate(scope: string | null): boolean {
  return scope === null || scope === 'private';
}

/** Deletes the postings of documents whose stored rows held `terms` (recallRowSync.ts's old rows). */
export async function deletePostings(
  db: Queryable,
  old: ReadonlyArray<{ doc: number; terms: readonly string[] }>,
): Promise<void> {
  const terms = old.flatMap((row) => row.terms);
  if (terms.length === 0) return;
  const docs = old.flatMap((row) => row.terms.map(() => row.doc));
  await db.query(
    `DELETE FROM engram_recall_postings p USING unnest($1::text[], $2::integer[]) AS x(term, doc)
     WHERE p.term = x.term AND p.doc = x.doc`,
    [terms, docs],
  );
}

export async function insertPostings(db: Queryable, rows: readonly PostingSource[]): Promise<void> {
  const columns: unknown[][] = Array.from({ length: 13 }, () => []);
  for (const row of rows) {
    const hidden = isPrivate(row.scope);
    for (const [term, tf] of row.counts) {
      const values = [
        term,
        row.doc,
        ...[0, 1, 2, 3].map((c) => tf[c] ?? 0),
        ...[0, 1, 2, 3].map((c) => row.lengths[c] ?? 0),
        row.status,
        hidden,
        hidden ? row.agent : null,
      ];
      values.forEach((value, i) => columns[i]!.push(value));
    }
  }
  if (columns[0]!.length === 0) return;
  await db.query(
    `INSERT INTO engram_recall_postings (term, doc, tf0, tf1, tf2, tf3, len0, len1, len2, len3, status, private, agent)
     SELECT * FROM unnest($1::text[], $2::integer[], $3::integer[], $4::integer[], $5::integer[],
       $6::integer[], $7::integer[], $8::integer[], $9::integer[], $10::integer[], $11::text[],
       $12::boolean[], $13::text[])`,
    columns,
  );
}
