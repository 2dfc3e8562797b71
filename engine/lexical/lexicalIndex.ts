import type { SqlReader, SqlWriter } from '../store/sqlAccess';
import type { SqlValue } from '../store/statementLog';
import { noteLexicalChange } from './lexicalChanges';
import { withoutIdReferences } from '../extract/idReferences';
import { codeHeading, isPythonSource } from './codeHeading';
import { queryTerms, tokenize } from './tokenizer';

/**
 * The lexical index: one FTS4 row per memory (not per version), keyed by the memory's integer
 * document number, holding the memory's current text as code-aware terms (see tokenizer.ts) in
 * four columns weighted differently at query time.
 */
export const LEXICAL_COLUMNS = ['content', 'context', 'tags', 'entities'] as const;

/** Column weights for BM25: content counts most; the long source context least. */
export const LEXICAL_WEIGHTS: readonly number[] = [1.0, 0.3, 0.8, 0.6];

/** Longest context text indexed, in characters: source excerpts can be huge and add little. */
const MAX_CONTEXT_INDEXED = 4000;

export interface IndexedText {
  content: string;
  context: string | null;
  tags: readonly string[];
  entityNames: readonly string[];
}

/** The memory's document number (created on first use): FTS rows and vectors are keyed by it. */
export function documentOf(tx: SqlWriter, memoryId: string): number {
  const existing = tx.value<number>('SELECT doc FROM memory_docs WHERE memory_id = ?', [memoryId]);
  if (existing !== undefined) return existing;
  tx.run('INSERT INTO memory_docs (memory_id) VALUES (?)', [memoryId]);
  return tx.value<number>('SELECT doc FROM memory_docs WHERE memory_id = ?', [memoryId])!;
}

export function indexMemory(tx: SqlWriter, memoryId: string, text: IndexedText): number {
  const doc = documentOf(tx, memoryId);
  tx.run('DELETE FROM memory_fts WHERE docid = ?', [doc]);
  insertDocument(tx, doc, text);
  return doc;
}

export const LEXICAL_INSERT = 'INSERT INTO memory_fts (docid, content, context, tags, entities)';

/** The values of a document's lexical row, in LEXICAL_INSERT's column order. */
export function lexicalRow(doc: number, text: IndexedText): SqlValue[] {
  return [
    doc,
    tokenize(withoutIdReferences(text.content)).join(' '),
    tokenize(withoutIdReferences((text.context ?? '').slice(0, MAX_CONTEXT_INDEXED))).join(' '),
    // A memory that is code is labelled by what it defines and documents (codeHeading.ts).
    tokenize([...text.tags, codeHeading(text.content)].join(' ')).join(' '),
    tokenize(indexedEntities(text).join(' ')).join(' '),
  ];
}

/** The entity names a row indexes: none of Python source (see isPythonSource). */
function indexedEntities(text: IndexedText): readonly string[] {
  return text.entityNames.length > 0 && isPythonSource(text.content) ? [] : text.entityNames;
}

function insertDocument(tx: SqlWriter, doc: number, text: IndexedText): void {
  tx.run(`${LEXICAL_INSERT} VALUES (?, ?, ?, ?, ?)`, lexicalRow(doc, text));
  noteLexicalChange(doc);
}

/** Indexes every current memory that has no FTS row yet (after imports and migrations). */
export function indexMissing(tx: SqlWriter): number {
  const missing = tx.all<{ id: string; content: string; context: string | null; tags: string }>(
    `SELECT m.id, m.content, m.context, m.tags FROM memories m
     WHERE m.superseded_at IS NULL AND NOT EXISTS (
       SELECT 1 FROM memory_docs d JOIN memory_fts f ON f.docid = d.doc WHERE d.memory_id = m.id)`,
  );
  for (const row of missing) {
    const entityNames = tx
      .all<{ name: string }>(
        'SELECT e.name FROM memory_entities me JOIN entities e ON e.id = me.entity_id WHERE me.memory_id = ?',
        [row.id],
      )
      .map((e) => e.name);
    indexMemory(tx, row.id, {
      content: row.content,
      context: row.context,
      tags: JSON.parse(row.tags) as string[],
      entityNames,
    });
  }
  return missing.length;
}

/** Query terms beyond this many are ignored (a pasted page is not a better query). */
export const MAX_QUERY_TERMS = 32;

export interface LexicalHit {
  memoryId: string;
  doc: number;
  score: number;
}

/**
 * BM25 top `limit` over current memories with one of `statuses`, best first. The statuses and any
 * extra SQL filter are applied inside the query so the limit counts only eligible memories.
 */
export function searchLexical(
  reader: SqlReader,
  query: string,
  limit: number,
  statuses: readonly string[] = ['active'],
): LexicalHit[] {
  const terms = affordableTerms(reader, queryTerms(query).slice(0, MAX_QUERY_TERMS));
  if (terms.length === 0) return [];
  const match = terms.join(' OR ');
  const weights = LEXICAL_WEIGHTS.join(', ');
  const scored = `SELECT docid, bm25(matchinfo(memory_fts, 'pcnalx'), ${weights}) AS score
     FROM memory_fts WHERE memory_fts MATCH ?`;
  // Ties in document order, as the in-memory index breaks them.
  const ranked = (source: string, params: SqlValue[]) =>
    reader.all<LexicalHit>(
      `SELECT d.memory_id AS memoryId, d.doc AS doc, s.score AS score
       FROM (${source}) s JOIN memory_docs d ON d.doc = s.docid
       JOIN memories m ON m.id = d.memory_id AND m.superseded_at IS NULL
       WHERE m.status IN (${statuses.map(() => '?').join(', ')})
       ORDER BY s.score DESC, s.docid LIMIT ?`,
      [...params, ...statuses, limit],
    );
  // Looking up each match's memory row costs most of a search that matches thousands (~11 us a
  // row against ~3 us for its score): first only the best-scored matches, which are nearly always
  // eligible; all of them only when too few of those were.
  const shortlist = limit * 2 + 16;
  const best = ranked(`${scored} ORDER BY score DESC, docid LIMIT ?`, [match, shortlist]);
  return best.length >= limit ? best : ranked(scored, [match]);
}

/**
 * BM25 is computed for every memory that matches any term, so a term found in most of a large
 * store (think "use" in 100k memories) costs the most and, with an idf near zero, ranks the least.
 * Above this many matching documents the most frequent terms are left out, rarest kept first; at
 * least one term always stays. Small stores never reach it.
 */
export const MATCH_BUDGET = 3000;

export function affordableTerms(
  reader: SqlReader,
  terms: string[],
  /** Rows holding the term in any column (fts4aux's `documents`; the in-memory copy knows it too). */
  documentsWith: (term: string) => number = (term) =>
    reader.value<number>("SELECT documents FROM memory_fts_terms WHERE term = ? AND col = '*'", [term]) ?? 0,
): string[] {
  if (terms.length <= 1) return terms;
  return affordableWithin(
    terms,
    reader.value<number>('SELECT max(doc) FROM memory_docs') ?? 0,
    documentsWith,
  );
}

/**
 * affordableTerms over any store: `maxDoc` the highest document number it ever gave (the team
 * server's PostgreSQL rows know it as SQLite does), `documentsWith` its document frequencies.
 */
export function affordableWithin(
  terms: string[],
  maxDoc: number,
  documentsWith: (term: string) => number,
): string[] {
  if (terms.length <= 1) return terms;
  // Document numbers only grow: a store that never held more than the budget cannot exceed it.
  if (maxDoc <= MATCH_BUDGET) return terms;
  const df = new Map<string, number>();
  for (const term of terms) df.set(term, documentsWith(term));
  const total = [...df.values()].reduce((sum, n) => sum + n, 0);
  if (total <= MATCH_BUDGET) return terms;
  const byRarity = [...terms].sort((a, b) => df.get(a)! - df.get(b)!);
  const kept: string[] = [];
  let spent = 0;
  for (const term of byRarity) {
    if (kept.length > 0 && spent + df.get(term)! > MATCH_BUDGET) break;
    kept.push(term);
    spent += df.get(term)!;
  }
  return kept;
}
