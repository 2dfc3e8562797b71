import { BM25_B, BM25_K1, fts4AverageLength, idf } from './bm25';

/**
 * An in-memory inverted index over the lexical index's four FTS4 columns, holding exactly the
 * statistics SQLite's `matchinfo('pcnalx')` reports (row count, per-column token totals, per-row
 * column lengths, per-column document frequency and term frequency), so that BM25 scored here
 * equals `bm25(matchinfo(...))` over the same rows. Scoring through FTS4 costs ~10 us per
 * matching row in a registered function; here it is a few typed-array reads per posting.
 */
export const COLUMNS = 4;

/**
 * One term in one column: the documents holding it (ascending) and how often, interleaved in one
 * array (doc, tf, doc, tf, ...). Most terms are rare (an id, a number): one small array each.
 */
class Postings {
  entries = new Int32Array(2);
  length = 0;

  /** Where `doc` is, or where it would go (first position holding a larger document). */
  private find(doc: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.entries[2 * mid]! < doc) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(doc: number, tf: number): void {
    if (2 * this.length === this.entries.length) {
      const entries = new Int32Array(Math.max(2, this.entries.length * 2));
      entries.set(this.entries);
      this.entries = entries;
    }
    // New memories get the highest document number: appending is the common case.
    const last = this.length - 1;
    const at = last < 0 || this.entries[2 * last]! < doc ? this.length : this.find(doc);
    if (at < this.length) this.entries.copyWithin(2 * at + 2, 2 * at, 2 * this.length);
    this.entries[2 * at] = doc;
    this.entries[2 * at + 1] = tf;
    this.length++;
  }

  remove(doc: number): void {
    const at = this.find(doc);
    if (at >= this.length || this.entries[2 * at] !== doc) return;
    this.entries.copyWithin(2 * at, 2 * at + 2, 2 * this.length);
    this.length--;
  }

  /** Gives back the room doubling left unused (after a full build). */
  trim(): void {
    if (this.entries.length > 2 * this.length) this.entries = this.entries.slice(0, 2 * this.length);
  }
}

/** Tokens as FTS4's simple tokenizer sees them: runs of ASCII letters and digits or code points >= 128. */
const SIMPLE_SEPARATORS = /[^a-zA-Z0-9\u0080-\uffff]+/;

export function simpleTokens(text: string): string[] {
  const lowered = /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (s) => s.toLowerCase()) : text;
  return lowered.split(SIMPLE_SEPARATORS).filter((t) => t !== '');
}

export interface ScoredDoc {
  doc: number;
  score: number;
}

export class InvertedIndex {
  private readonly termIds = new Map<string, number>();
  /** Postings by term id * COLUMNS + column. */
  private readonly lists: Array<Postings | undefined> = [];
  private readonly memoryIds: Array<string | undefined> = [];
  /** Tokens per (document, column). */
  private lengths = new Int32Array(0);
  private present = new Uint8Array(0);
  private readonly totals = new Float64Array(COLUMNS);
  /**
   * Each present document's posting lists (so re-indexing it can take it out of them): a slice
   * docListStart[doc] .. + docListCount[doc] of one shared pool, compacted when mostly garbage.
   */
  private pool = new Int32Array(1024);
  private poolUsed = 0;
  private poolGarbage = 0;
  private docListStart = new Int32Array(0);
  private docListCount = new Int32Array(0);
  /** Scratch term counts while adding one document: count per list, valid where stamp = doc + 1. */
  private listStamp = new Int32Array(1024);
  private listCount = new Int32Array(1024);
  private rows = 0;
  private maxDoc = 0;
  /** documentsWithTerm answers since the last change. */
  private readonly documentCounts = new Map<string, number>();
  /** Scratch score accumulators, one per document, zero between searches (see Ranking.release). */
  private acc = new Float64Array(0);
  private matched = new Int32Array(0);
  private searching = false;

  get size(): number {
    return this.rows;
  }

  memoryIdOf(doc: number): string | undefined {
    return this.memoryIds[doc];
  }

  /** Documents matching `term` in `column`: the third `x` value of matchinfo. */
  documentFrequency(term: string, column: number): number {
    const id = this.termIds.get(term);
    return id === undefined ? 0 : (this.lists[id * COLUMNS + column]?.length ?? 0);
  }

  /** Documents holding `term` in any column (fts4aux's `documents` for col '*'). */
  documentsWithTerm(term: string): number {
    let count = this.documentCounts.get(term);
    if (count === undefined) {
      count = this.countDocumentsWithTerm(term);
      this.documentCounts.set(term, count);
    }
    return count;
  }

  /** Merges the term's column lists: as much work as scoring them, so it is cached until a write. */
  private countDocumentsWithTerm(term: string): number {
    const id = this.termIds.get(term);
    if (id === undefined) return 0;
    const lists = [0, 1, 2, 3]
      .map((c) => this.lists[id * COLUMNS + c])
      .filter((list): list is Postings => list !== undefined && list.length > 0);
    if (lists.length <= 1) return lists[0]?.length ?? 0;
    // Merge the columns' ascending document lists, counting each document once.
    const at = lists.map(() => 0);
    let count = 0;
    for (;;) {
      let next = Infinity;
      for (let i = 0; i < lists.length; i++)
        if (at[i]! < lists[i]!.length) next = Math.min(next, lists[i]!.entries[2 * at[i]!]!);
      if (next === Infinity) return count;
      count++;
      for (let i = 0; i < lists.length; i++)
        if (at[i]! < lists[i]!.length && lists[i]!.entries[2 * at[i]!] === next) at[i]!++;
    }
  }

  /** Adds a document (replacing what it held): its FTS4 row's column texts. */
  set(doc: number, memoryId: string | undefined, columns: ReadonlyArray<string | null>): void {
    this.delete(doc);
    this.documentCounts.clear();
    if (doc >= this.maxDoc) this.grow(doc + 1);
    const stamp = doc + 1;
    const first = this.poolUsed;
    for (let c = 0; c < COLUMNS; c++) {
      const text = columns[c];
      const tokens = text ? simpleTokens(text) : [];
      this.lengths[doc * COLUMNS + c] = tokens.length;
      this.totals[c]! += tokens.length;
      const columnFirst = this.poolUsed;
      for (const token of tokens) {
        let id = this.termIds.get(token);
        if (id === undefined) {
          id = this.termIds.size;
          this.termIds.set(token, id);
        }
        const listId = id * COLUMNS + c;
        if (listId >= this.listStamp.length) this.growScratch(listId + 1);
        if (this.listStamp[listId] !== stamp) {
          this.listStamp[listId] = stamp;
          this.listCount[listId] = 0;
          this.pushList(listId);
        }
        this.listCount[listId]!++;
      }
      for (let i = columnFirst; i < this.poolUsed; i++) {
        const listId = this.pool[i]!;
        let list = this.lists[listId];
        if (!list) this.lists[listId] = list = new Postings();
        list.insert(doc, this.listCount[listId]!);
      }
    }
    // Stamps must not survive into a re-index of the same document.
    for (let i = first; i < this.poolUsed; i++) this.listStamp[this.pool[i]!] = 0;
    this.docListStart[doc] = first;
    this.docListCount[doc] = this.poolUsed - first;
    this.memoryIds[doc] = memoryId;
    this.present[doc] = 1;
    this.rows++;
  }

  delete(doc: number): void {
    if (doc >= this.maxDoc || !this.present[doc]) return;
    this.documentCounts.clear();
    const start = this.docListStart[doc]!;
    const count = this.docListCount[doc]!;
    for (let i = start; i < start + count; i++) this.lists[this.pool[i]!]!.remove(doc);
    for (let c = 0; c < COLUMNS; c++) this.totals[c]! -= this.lengths[doc * COLUMNS + c]!;
    this.poolGarbage += count;
    this.memoryIds[doc] = undefined;
    this.present[doc] = 0;
    this.rows--;
    if (this.poolGarbage > 65_536 && this.poolGarbage > this.poolUsed / 2) this.compact();
  }

  /** Gives back the room that growing by doubling left unused: call after adding many documents. */
  trim(): void {
    for (const list of this.lists) list?.trim();
    if (this.pool.length > this.poolUsed * 1.25 + 1024) this.pool = this.pool.slice(0, this.poolUsed + 1024);
  }

  private pushList(listId: number): void {
    if (this.poolUsed === this.pool.length) {
      const pool = new Int32Array(this.pool.length * 2);
      pool.set(this.pool);
      this.pool = pool;
    }
    this.pool[this.poolUsed++] = listId;
  }

  private compact(): void {
    const pool = new Int32Array(Math.max(1024, (this.poolUsed - this.poolGarbage) * 2));
    let used = 0;
    for (let doc = 0; doc < this.maxDoc; doc++) {
      if (!this.present[doc]) continue;
      const start = this.docListStart[doc]!;
      const count = this.docListCount[doc]!;
      pool.set(this.pool.subarray(start, start + count), used);
      this.docListStart[doc] = used;
      used += count;
    }
    this.pool = pool;
    this.poolUsed = used;
    this.poolGarbage = 0;
  }

  private growScratch(size: number): void {
    const capacity = Math.max(size, this.listStamp.length * 2);
    const stamp = new Int32Array(capacity);
    stamp.set(this.listStamp);
    const count = new Int32Array(capacity);
    count.set(this.listCount);
    this.listStamp = stamp;
    this.listCount = count;
  }

  /**
   * BM25 of every document matching any of `terms` (OR), as bm25.ts computes it from matchinfo:
   * per column, idf from the column's document frequency and length normalised by FTS4's rounded
   * average column length. Returns a ranking that yields the best documents on demand.
   */
  score(terms: readonly string[], weights: readonly number[]): Ranking {
    // One accumulator array reused by every search: allocating 8 bytes per document per recall
    // (800 KB at 100k) costs more in garbage collection than the scoring itself.
    if (this.searching || this.acc.length < this.maxDoc) {
      this.acc = new Float64Array(this.maxDoc);
      this.matched = new Int32Array(this.maxDoc);
    }
    const acc = this.acc;
    const matched = this.matched;
    let count = 0;
    const k1 = BM25_K1;
    for (let c = 0; c < COLUMNS && this.rows > 0; c++) {
      const weight = weights[c] ?? 1;
      if (weight === 0) continue;
      // matchinfo 'a': the average column length, rounded to an integer the way FTS4 does.
      const average = fts4AverageLength(this.totals[c]!, this.rows);
      const base = k1 * (1 - BM25_B);
      const perToken = (k1 * BM25_B) / average;
      const lengths = this.lengths;
      for (const term of terms) {
        const id = this.termIds.get(term);
        const list = id === undefined ? undefined : this.lists[id * COLUMNS + c];
        if (!list || list.length === 0) continue;
        const factor = weight * idf(this.rows, list.length) * (k1 + 1);
        const { entries, length } = list;
        for (let i = 0; i < 2 * length; i += 2) {
          const doc = entries[i]!;
          const tf = entries[i + 1]!;
          const before = acc[doc]!;
          if (before === 0) matched[count++] = doc;
          acc[doc] = before + (factor * tf) / (tf + base + perToken * lengths[doc * COLUMNS + c]!);
        }
      }
    }
    this.searching = true;
    return new Ranking(acc, matched, count, () => {
      for (let i = 0; i < count; i++) acc[matched[i]!] = 0;
      if (acc === this.acc) this.searching = false;
    });
  }

  private grow(size: number): void {
    const capacity = Math.max(size, this.maxDoc * 2, 1024);
    const widen = <T extends Int32Array | Uint8Array>(from: T, make: (n: number) => T, per = 1): T => {
      const to = make(capacity * per);
      to.set(from);
      return to;
    };
    this.lengths = widen(this.lengths, (n) => new Int32Array(n), COLUMNS);
    this.present = widen(this.present, (n) => new Uint8Array(n));
    this.docListStart = widen(this.docListStart, (n) => new Int32Array(n));
    this.docListCount = widen(this.docListCount, (n) => new Int32Array(n));
    this.maxDoc = capacity;
  }
}

/**
 * Scored documents; `top(n)` selects the n best (score descending, then document ascending).
 * Holds the index's scratch arrays: call `release()` when done.
 */
export class Ranking {
  constructor(
    private readonly acc: Float64Array,
    private readonly matchedDocs: Int32Array,
    readonly matches: number,
    readonly release: () => void,
  ) {}

  top(n: number): ScoredDoc[] {
    const { acc, matchedDocs, matches } = this;
    const better = (a: number, b: number) => acc[a]! > acc[b]! || (acc[a] === acc[b] && a < b);
    // A bounded min-heap (worst of the kept at the root): O(matches log n).
    const heap: number[] = [];
    const siftDown = (i: number) => {
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let worst = i;
        if (l < heap.length && better(heap[worst]!, heap[l]!)) worst = l;
        if (r < heap.length && better(heap[worst]!, heap[r]!)) worst = r;
        if (worst === i) return;
        [heap[i], heap[worst]] = [heap[worst]!, heap[i]!];
        i = worst;
      }
    };
    // Once n are kept, most matches score below the worst of them: reject those on one compare.
    let floor = -Infinity;
    for (let m = 0; m < matches; m++) {
      const doc = matchedDocs[m]!;
      if (acc[doc]! < floor) continue;
      if (heap.length < n) {
        heap.push(doc);
        for (let i = heap.length - 1; i > 0;) {
          const parent = (i - 1) >>> 1;
          if (!better(heap[parent]!, heap[i]!)) break;
          [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
          i = parent;
        }
        if (heap.length === n) floor = acc[heap[0]!]!;
      } else if (n > 0 && better(doc, heap[0]!)) {
        heap[0] = doc;
        siftDown(0);
        floor = acc[heap[0]]!;
      }
    }
    return heap.sort((a, b) => (better(a, b) ? -1 : 1)).map((doc) => ({ doc, score: acc[doc]! }));
  }
}
