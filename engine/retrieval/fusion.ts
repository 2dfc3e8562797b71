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

export function reciprocalRankFusion(results: readonly ChannelResult[], k = RRF_K): FusedCandidate[] {
  const fused = new Map<string, FusedCandidate>();
  for (const result of results) {
    if (result.weight <= 0) continue;
    result.ranked.forEach((hit, index) => {
      const rank = index + 1;
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
