import type { FusedCandidate } from './fusion';

/** Pools up to this size are read in one statement: a second read would cost more than it saves. */
const READ_WHOLE_POOL = 100;
/** The fewest candidates read at a time after the first k. */
const MIN_READ = 32;

/**
 * Reads the rows of a recall's candidate pool (best fused score first) and hands each candidate
 * to `consider`, which answers its boosted score or undefined when it is dropped. A boost is at
 * most `ceiling`, so once k candidates have scores, a candidate whose fused score times the
 * ceiling is below the k-th of them cannot enter the top k, nor can any after it: reading stops
 * there. The top k is the same as reading the whole pool gives (the pool is three times k, and at
 * k = 1000 reading it was a third of a recall); `everything` reads the whole pool (a trace lists
 * every dropped candidate).
 */
export function rankPool<M>(
  pool: readonly FusedCandidate[],
  k: number,
  ceiling: number,
  readRows: (ids: string[]) => Map<string, M>,
  consider: (candidate: FusedCandidate, memory: M | undefined) => number | undefined,
  everything = false,
): void {
  const scores: number[] = [];
  let read = 0;
  let end = everything || pool.length <= READ_WHOLE_POOL ? pool.length : Math.min(pool.length, k);
  while (read < end) {
    const slice = pool.slice(read, end);
    const rows = readRows(slice.map((c) => c.memoryId));
    for (const candidate of slice) {
      const score = consider(candidate, rows.get(candidate.memoryId));
      if (score !== undefined) scores.push(score);
    }
    read = end;
    const kth = scores.length >= k ? kthLargest(scores, k) : undefined;
    // Fewer than k scored yet (filters dropped some): as many more as, at the share of candidates
    // kept so far, should make up the rest.
    if (kth === undefined)
      end = Math.min(pool.length, read + wanted(k - scores.length, scores.length / read));
    else while (end < pool.length && pool[end]!.fused * ceiling >= kth) end++;
  }
}

/** Candidates to read for `missing` more scores when `kept` of those read were kept (a quarter spare). */
function wanted(missing: number, kept: number): number {
  return Math.max(MIN_READ, Math.ceil((1.25 * missing) / Math.max(kept, 0.1)));
}

function kthLargest(values: number[], k: number): number {
  return [...values].sort((a, b) => b - a)[k - 1]!;
}
