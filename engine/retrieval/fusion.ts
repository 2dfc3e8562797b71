/**
 * Weighted reciprocal rank fusion (Cormack et al. 2009): score(d) = sum over channels c of
 * w_c / (k + rank_c(d)), rank starting at 1. Ranks, not raw scores, so channels with incomparable
 * scales (BM25, cosine, PageRank) combine; weights let a strong channel count more than a weak one.
 */
export const RRF_K = 60;

export interface ChannelResult {
  name: string;
  weight: number;
  /** Candidates best first. */
  ranked: Array<{ memoryId: string; score: number }>;
}

export interface FusedCandidate {
  memoryId: string;
  fused: number;
  channels: Record<string, { rank: number; score: number }>;
}

/**
 * Ranks with ties shared: items with equal scores get the average of the ranks they span. A
 * channel that cannot tell 200 memories apart (every memory linked to one entity, same weight)
 * must not hand rank 1 to whichever came first.
 */
export function tieAwareRanks(scores: readonly number[]): number[] {
  const ranks: number[] = new Array<number>(scores.length);
  let start = 0;
  while (start < scores.length) {
    let end = start;
    const value = scores[start]!;
    while (
      end + 1 < scores.length &&
      Math.abs(scores[end + 1]! - value) <= 1e-9 * Math.max(1, Math.abs(value))
    )
      end++;
    const shared = (start + end) / 2 + 1;
    for (let i = start; i <= end; i++) ranks[i] = shared;
    start = end + 1;
  }
  return ranks;
}

export function reciprocalRankFusion(results: readonly ChannelResult[], k = RRF_K): FusedCandidate[] {
  const fused = new Map<string, FusedCandidate>();
  for (const result of results) {
    if (result.weight <= 0) continue;
    const ranks = tieAwareRanks(result.ranked.map((hit) => hit.score));
    result.ranked.forEach((hit, index) => {
      const rank = ranks[index]!;
      let candidate = fused.get(hit.memoryId);
      if (!candidate) {
        candidate = { memoryId: hit.memoryId, fused: 0, channels: {} };
        fused.set(hit.memoryId, candidate);
      }
      candidate.fused += result.weight / (k + rank);
      candidate.channels[result.name] = { rank, score: hit.score };
    });
  }
  return [...fused.values()].sort((a, b) => b.fused - a.fused || a.memoryId.localeCompare(b.memoryId));
}
