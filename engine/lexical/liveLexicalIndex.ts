import { allForIds } from '../store/idLists';
import type { SqlReader } from '../store/sqlAccess';
import { InvertedIndex } from './invertedIndex';
import type { Ranking } from './invertedIndex';
import { listenForLexicalChanges } from './lexicalChanges';
import type { LexicalListener } from './lexicalChanges';
import { affordableTerms, LEXICAL_WEIGHTS, MAX_QUERY_TERMS, searchLexical } from './lexicalIndex';
import type { LexicalHit } from './lexicalIndex';
import { queryTerms } from './tokenizer';

/** The store's database, as far as the copy needs it: whether a write transaction is open. */
export interface IndexedDatabase {
  readonly inWrite: boolean;
  /** The last committed transaction: statuses read at one value hold until it moves. */
  readonly lastSeq: number;
}

/** Rows read per statement while building, so the whole table is never held as objects at once. */
const BUILD_PAGE = 5000;

/**
 * Rows are read from FTS4's content table (`<table>_content`, columns `c<i><name>`): the same text
 * the virtual table returns, without its cursor layer. The four columns come joined by \x01 (the
 * indexed text holds only letters, digits and spaces): sql.js pays per column of every row
 * (measured at 100k memories: 0.42 s of CPU instead of 0.65 s for the full read).
 */
const ROW_COLUMNS = `f.docid AS doc, d.memory_id AS memoryId, ifnull(f.c0content, '') || char(1) ||
  ifnull(f.c1context, '') || char(1) || ifnull(f.c2tags, '') || char(1) || ifnull(f.c3entities, '') AS text
  FROM memory_fts_content f LEFT JOIN memory_docs d ON d.doc = f.docid`;

interface FtsRow {
  doc: number;
  memoryId: string | null;
  /** content, context, tags and entities joined by \x01. */
  text: string;
}

/**
 * How a database's in-memory copy comes to exist. `on-first-search`: the first search builds it
 * (a store used directly, as in tests). `background`: built in slices off the caller's path, from
 * open on (hosts); until it is ready, searches are answered by the same BM25 in SQL (FTS4), so the
 * first recall after open never waits for a build. `never`: a process that answers one call and
 * exits (the CLI) searches in SQL only: building a copy for one query costs more than the query.
 */
export type LexicalCopyMode = 'on-first-search' | 'background' | 'never';

/** Reads the database later, outside the caller's read (a background slice). */
export type ReadLater = <T>(fn: (reader: SqlReader) => T) => T;

/** Rows read per background slice: about 15 ms of the thread at a time. */
const BACKGROUND_SLICE = 1000;

interface BackgroundBuild {
  index: InvertedIndex;
  /** The last document read; changes to documents up to it are re-read at the end. */
  after: number;
  dirty: Set<number>;
  /** Milliseconds the slices took so far (the thread's time, not the build's span). */
  spent: number;
}

/**
 * The in-memory copy of one database's lexical index, kept current: every document the write
 * path indexes is re-read from SQLite before the next search. Statuses (invalidated, forgotten,
 * superseded) are not copied: they are checked in SQL for the few best-scored candidates.
 */
class LiveLexicalIndex implements LexicalListener {
  private index: InvertedIndex | undefined;
  private readonly dirty = new Set<number>();
  private stale = false;
  private building: BackgroundBuild | undefined;
  private readonly waiting: Array<() => void> = [];
  mode: LexicalCopyMode = 'on-first-search';
  readLater: ReadLater | undefined;
  /** Milliseconds of this thread the last full build took (in the background: its slices'). */
  buildMs = 0;

  constructor(private readonly db: IndexedDatabase) {
    listenForLexicalChanges(this);
  }

  changed(doc: number): void {
    const building = this.building;
    if (building) {
      // Documents not read yet are read as they will be; those already read are read again.
      if (doc <= building.after) building.dirty.add(doc);
      return;
    }
    if (!this.index || this.stale) return;
    this.dirty.add(doc);
    // A bulk load after the build: reading the table once is cheaper than row by row.
    if (this.dirty.size > Math.max(10_000, this.index.size)) {
      this.stale = true;
      this.dirty.clear();
    }
  }

  /** The copy, current, or undefined where this search must go to SQL (see LexicalCopyMode). */
  usable(reader: SqlReader): InvertedIndex | undefined {
    if (this.mode === 'never') return undefined;
    if (this.mode === 'background' && (!this.index || this.stale)) {
      this.startBackgroundBuild();
      return undefined;
    }
    return this.current(reader);
  }

  current(reader: SqlReader): InvertedIndex {
    if (!this.index || this.stale) {
      this.index = undefined; // let the old copy go before the new one is built
      this.dirty.clear();
      this.stale = false;
      const started = performance.now();
      this.index = build(reader);
      this.buildMs = performance.now() - started;
    } else if (this.dirty.size > 0) {
      refresh(reader, this.index, [...this.dirty]);
      this.dirty.clear();
    }
    return this.index;
  }

  /**
   * Resolves once a copy is built (at once when one is), starting the build if none runs; also
   * when there is nothing to build with (no readLater) or the database closed under the build.
   */
  ready(): Promise<void> {
    if (this.index && !this.stale) return Promise.resolve();
    this.startBackgroundBuild();
    if (!this.building) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  startBackgroundBuild(): void {
    const readLater = this.readLater;
    if (this.building || !readLater) return;
    this.index = undefined;
    this.dirty.clear();
    this.stale = false;
    const build: BackgroundBuild = {
      index: new InvertedIndex(),
      after: -1,
      dirty: new Set(),
      spent: 0,
    };
    this.building = build;
    const step = (): void => {
      if (this.building !== build) return;
      // A write in progress may still be rolled back: read once it is over.
      if (this.db.inWrite) return later(step);
      const started = performance.now();
      let rows: FtsRow[];
      try {
        rows = readLater((r) =>
          r.all<FtsRow>(
            `SELECT ${ROW_COLUMNS} WHERE f.docid > ? ORDER BY f.docid LIMIT ${BACKGROUND_SLICE}`,
            [build.after],
          ),
        );
      } catch {
        this.building = undefined; // closed: nothing left to build for
        for (const resolve of this.waiting.splice(0)) resolve();
        return;
      }
      for (const row of rows) setRow(build.index, row);
      if (rows.length > 0) build.after = rows[rows.length - 1]!.doc;
      build.spent += performance.now() - started;
      if (rows.length === BACKGROUND_SLICE) return later(step);
      build.index.trim();
      this.building = undefined;
      this.index = build.index;
      for (const doc of build.dirty) this.dirty.add(doc);
      this.buildMs = build.spent;
      for (const resolve of this.waiting.splice(0)) resolve();
    };
    later(step);
  }
}

/**
 * The next slice after pending I/O. Kept referenced: someone may be waiting for the copy (ready),
 * and a build stops by itself once the database is closed.
 */
function later(step: () => void): void {
  setImmediate(step);
}

function build(reader: SqlReader): InvertedIndex {
  const index = new InvertedIndex();
  for (let after = -1; ;) {
    const rows = reader.all<FtsRow>(
      `SELECT ${ROW_COLUMNS} WHERE f.docid > ? ORDER BY f.docid LIMIT ${BUILD_PAGE}`,
      [after],
    );
    for (const row of rows) setRow(index, row);
    if (rows.length < BUILD_PAGE) {
      index.trim();
      return index;
    }
    after = rows[rows.length - 1]!.doc;
  }
}

/**
 * Re-reads changed rows. New memories get consecutive document numbers, so the changed documents
 * are read as runs of consecutive numbers, one range query each; a document with no row left is
 * taken out.
 */
function refresh(reader: SqlReader, index: InvertedIndex, docs: number[]): void {
  docs.sort((a, b) => a - b);
  for (let i = 0; i < docs.length;) {
    let j = i;
    while (j + 1 < docs.length && docs[j + 1] === docs[j]! + 1) j++;
    const from = docs[i]!;
    const to = docs[j]!;
    let expected = from;
    for (const row of reader.all<FtsRow>(
      `SELECT ${ROW_COLUMNS} WHERE f.docid >= ? AND f.docid <= ? ORDER BY f.docid`,
      [from, to],
    )) {
      while (expected < row.doc) index.delete(expected++);
      setRow(index, row);
      expected = row.doc + 1;
    }
    while (expected <= to) index.delete(expected++);
    i = j + 1;
  }
}

function setRow(index: InvertedIndex, row: FtsRow): void {
  index.set(row.doc, row.memoryId ?? undefined, row.text.split('\x01'));
}

const copies = new WeakMap<IndexedDatabase, LiveLexicalIndex>();

function copyOf(db: IndexedDatabase): LiveLexicalIndex {
  let copy = copies.get(db);
  if (!copy) copies.set(db, (copy = new LiveLexicalIndex(db)));
  return copy;
}

/**
 * How the database's copy is built (see LexicalCopyMode); `background` starts building now.
 * `readLater` reads the database outside any caller's read (the store's `read`).
 */
export function useLexicalCopy(db: IndexedDatabase, mode: LexicalCopyMode, readLater: ReadLater): void {
  const copy = copyOf(db);
  copy.mode = mode;
  copy.readLater = readLater;
  if (mode === 'background') copy.startBackgroundBuild();
}

/** Resolves once the database's in-memory copy is built (tests, benchmarks). */
export function lexicalCopyReady(db: IndexedDatabase): Promise<void> {
  return copyOf(db).ready();
}

/** How long the database's in-memory lexical index took to build (0 before the first recall). */
export function lexicalBuildMs(db: IndexedDatabase): number {
  return copies.get(db)?.buildMs ?? 0;
}

/**
 * BM25 top `limit` over current memories with one of `statuses`, best first: the same ranking as
 * searchLexical (the SQL one), scored in memory. Inside a write transaction it falls back to SQL,
 * since rows the transaction wrote may still be rolled back; so does it while the copy is being
 * built in the background, and always in a one-shot process (see LexicalCopyMode).
 */
export function searchLexicalInMemory(
  db: IndexedDatabase,
  reader: SqlReader,
  query: string,
  limit: number,
  statuses: readonly string[] = ['active'],
): LexicalHit[] {
  if (db.inWrite) return searchLexical(reader, query, limit, statuses);
  const terms = queryTerms(query).slice(0, MAX_QUERY_TERMS);
  if (terms.length === 0 || limit <= 0) return [];
  const index = copyOf(db).usable(reader);
  if (!index) return searchLexical(reader, query, limit, statuses);
  // The same terms as the SQL search: measured, scoring every term instead moved CoSQA's lexical
  // MRR from 0.321 to 0.320 (the commonest terms of a large store say little).
  const kept = affordableTerms(reader, terms, (term) => index.documentsWithTerm(term));
  const ranking = index.score(kept, LEXICAL_WEIGHTS);
  try {
    return eligibleTop(reader, index, ranking, limit, statuses, statusCacheOf(db));
  } finally {
    ranking.release();
  }
}

function eligibleTop(
  reader: SqlReader,
  index: InvertedIndex,
  ranking: Ranking,
  limit: number,
  statuses: readonly string[],
  known: StatusCache,
): LexicalHit[] {
  // Usually every top candidate is eligible; when some are not, look further down.
  for (let want = limit; ; want = Math.min(ranking.matches, want * 4)) {
    const top = ranking.top(want);
    const ids = top.map((hit) => index.memoryIdOf(hit.doc)).filter((id): id is string => id !== undefined);
    const ok = eligible(reader, ids, statuses, known);
    const hits: LexicalHit[] = [];
    for (const { doc, score } of top) {
      const memoryId = index.memoryIdOf(doc);
      if (memoryId !== undefined && ok.has(memoryId)) hits.push({ memoryId, doc, score });
      if (hits.length === limit) return hits;
    }
    if (top.length < want || want >= ranking.matches) return hits;
  }
}

/** The ids that are current memories with one of `statuses`. */
function eligible(
  reader: SqlReader,
  ids: string[],
  statuses: readonly string[],
  known: StatusCache,
): Set<string> {
  readStatuses(reader, ids, known);
  const wanted = new Set(statuses);
  return new Set(ids.filter((id) => wanted.has(known.statusOf.get(id) ?? '')));
}

/** Reads into the cache the status and session of those of `ids` it does not hold yet. */
function readStatuses(reader: SqlReader, ids: readonly string[], known: StatusCache): void {
  const missing = ids.filter((id) => !known.statusOf.has(id));
  for (const id of missing) known.statusOf.set(id, null);
  for (const row of allForIds<{ id: string; status: string; session: string | null }>(
    reader,
    (marks) => `SELECT id, status, session FROM memories WHERE superseded_at IS NULL AND id IN (${marks})`,
    missing,
    [],
    true,
  )) {
    known.statusOf.set(row.id, row.status);
    known.sessionOf.set(row.id, row.session);
  }
}

/**
 * The sessions of current memories (null: none, or no current version), as of the last commit:
 * the session-neighbour step asks for those of the lexical hits, which the status check above has
 * just read (a query per recall for them was a tenth of a recall at 10k memories).
 */
export function cachedSessionsOf(
  db: IndexedDatabase,
  reader: SqlReader,
  ids: readonly string[],
): Map<string, string | null> {
  const known = statusCacheOf(db);
  readStatuses(reader, ids, known);
  return new Map(ids.map((id) => [id, known.sessionOf.get(id) ?? null]));
}

/**
 * Statuses (and sessions) of memories recalled lately, as of one committed transaction: a recall's
 * candidates repeat from query to query, and reading their statuses was a third of a search (10k
 * memories). Any commit may change them (forget, invalidate, a new version), so the next one clears it.
 */
interface StatusCache {
  seq: number;
  /** Memory id -> its current version's status, or null when it has no current version. */
  statusOf: Map<string, string | null>;
  /** Memory id -> its current version's session (read with its status). */
  sessionOf: Map<string, string | null>;
}

/** Statuses kept at most (a few hundred queries' candidates); then the cache starts over. */
const MAX_CACHED_STATUSES = 50_000;

const statusCaches = new WeakMap<IndexedDatabase, StatusCache>();

function statusCacheOf(db: IndexedDatabase): StatusCache {
  let cache = statusCaches.get(db);
  if (!cache || cache.seq !== db.lastSeq || cache.statusOf.size > MAX_CACHED_STATUSES)
    statusCaches.set(db, (cache = { seq: db.lastSeq, statusOf: new Map(), sessionOf: new Map() }));
  return cache;
}
