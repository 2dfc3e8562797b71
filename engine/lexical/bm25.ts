import type { Database } from 'sql.js';
import { registerBlobFunction } from './nativeFunction';

/**
 * Okapi BM25 for SQLite FTS4, which has no ranking function of its own (and sql.js has no FTS5).
 * SQL: `bm25(matchinfo(fts_table, 'pcnalx'), w0, w1, w2, w3)`, one weight per FTS column (sql.js
 * registers functions with a fixed arity, so always four; unused columns get 0). The score is the
 * weighted sum of per-column BM25 (higher is better).
 */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/** Decoded `matchinfo(..., 'pcnalx')`. */
export interface MatchInfo {
  phrases: number;
  columns: number;
  rows: number;
  /** Average tokens per column over all rows (rounded by SQLite). */
  averageLength: number[];
  /** Tokens per column of this row. */
  length: number[];
  /** hits[phrase][column] = [hits in this row, hits in all rows, rows with a hit]. */
  hits: Array<Array<[number, number, number]>>;
}

export function decodeMatchInfo(blob: Uint8Array): MatchInfo {
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const at = (index: number) => view.getUint32(index * 4, true);
  const phrases = at(0);
  const columns = at(1);
  const rows = at(2);
  const averageLength = Array.from({ length: columns }, (_, c) => at(3 + c));
  const length = Array.from({ length: columns }, (_, c) => at(3 + columns + c));
  const base = 3 + 2 * columns;
  const hits = Array.from({ length: phrases }, (_, p) =>
    Array.from({ length: columns }, (_, c): [number, number, number] => {
      const i = base + 3 * (p * columns + c);
      return [at(i), at(i + 1), at(i + 2)];
    }),
  );
  return { phrases, columns, rows, averageLength, length, hits };
}

/** matchinfo 'a': a column's average length in tokens, rounded to an integer the way FTS4 does. */
export function fts4AverageLength(tokens: number, rows: number): number {
  return Math.max(1, Math.floor((tokens + Math.floor(rows / 2)) / rows));
}

/** Robertson-Sparck Jones IDF, floored at a small positive value so common terms still count a little. */
export function idf(rows: number, rowsWithTerm: number): number {
  return Math.log(1 + (rows - rowsWithTerm + 0.5) / (rowsWithTerm + 0.5));
}

export function bm25Score(info: MatchInfo, weights: readonly number[], k1 = BM25_K1, b = BM25_B): number {
  let score = 0;
  for (let c = 0; c < info.columns; c++) {
    const weight = weights[c] ?? 1;
    if (weight === 0) continue;
    const avg = Math.max(1, info.averageLength[c] ?? 1);
    const norm = k1 * (1 - b + (b * (info.length[c] ?? 0)) / avg);
    for (let p = 0; p < info.phrases; p++) {
      const [tf, , docs] = info.hits[p]![c]!;
      if (tf === 0) continue;
      score += weight * idf(info.rows, docs) * ((tf * (k1 + 1)) / (tf + norm));
    }
  }
  return score;
}

/**
 * bm25Score(decodeMatchInfo(blob), weights) read straight from the blob: SQLite calls this for every
 * row that matches a query term (thousands for a one-shot CLI recall without the in-memory index),
 * and decoding each row into arrays first was most of that call's JS time.
 */
export function bm25FromMatchInfo(
  blob: Uint8Array,
  weights: readonly number[],
  k1 = BM25_K1,
  b = BM25_B,
): number {
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const at = (index: number) => view.getUint32(index * 4, true);
  const phrases = at(0);
  const columns = at(1);
  const rows = at(2);
  let score = 0;
  for (let c = 0; c < columns; c++) {
    const weight = weights[c] ?? 1;
    if (weight === 0) continue;
    const avg = Math.max(1, at(3 + c));
    const norm = k1 * (1 - b + (b * at(3 + columns + c)) / avg);
    for (let p = 0; p < phrases; p++) {
      const i = 3 + 2 * columns + 3 * (p * columns + c);
      const tf = at(i);
      if (tf === 0) continue;
      score += weight * idf(rows, at(i + 2)) * ((tf * (k1 + 1)) / (tf + norm));
    }
  }
  return score;
}

/** Registers `bm25(matchinfo, w0, w1, w2, w3)` on a database. */
export function registerBm25(db: Database): void {
  if (registerBlobFunction(db, 'bm25', 5, bm25FromMatchInfo)) return;
  const weights = [0, 0, 0, 0];
  db.create_function('bm25', (blob: unknown, w0: unknown, w1: unknown, w2: unknown, w3: unknown) => {
    if (!(blob instanceof Uint8Array)) return 0;
    weights[0] = Number(w0);
    weights[1] = Number(w1);
    weights[2] = Number(w2);
    weights[3] = Number(w3);
    return bm25FromMatchInfo(blob, weights);
  });
}
