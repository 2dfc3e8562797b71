import type { Intent } from './queryAnalysis';

export const CHANNELS = ['lexical', 'dense', 'graph', 'ppr', 'code', 'neighbours'] as const;
export type ChannelName = (typeof CHANNELS)[number];

/**
 * Fusion weight of each channel per intent. Lexical is the strongest single channel on every
 * benchmark we measured (see the README), so it leads everywhere; the sentence encoder is weaker
 * and adding a weak channel at equal weight makes fusion worse than lexical alone, so dense counts
 * less. Graph and PageRank only re-rank text matches (see recall.ts) and count little: at 0.3-0.6
 * they lowered recall on LoCoMo, LongMemEval and CoSQA alike, because a memory that names a query
 * entity is already matched by that word, so the graph counted the same evidence twice. They
 * weigh more where entities carry the question (who, where in code).
 * Code (the code search over the code index's files and symbols, engine/code/search/) runs only
 * for questions about code, in a workspace with a code index: there it ranks the module memories
 * of the files whose code matches, and counts twice as much as lexical: on the tuning half of the
 * localisation bench recall's file hit@5 went 0.321 without it, 0.536 at 1, 0.643 at 2, 0.679 at 3
 * (test/bench/localizationTuning.ts), the code channel alone being the stronger (0.857).
 * Neighbours (the turns around a strong hit) are not a fused list of their own: they raise the
 * lexical list, each scoring a share of its neighbouring hit's score (see neighbourChannel.ts).
 */
export type FusedChannel = Exclude<ChannelName, 'neighbours'>;

export const CHANNEL_WEIGHTS: Record<Intent, Record<FusedChannel, number>> = {
  what: { lexical: 1.0, dense: 0.5, graph: 0.1, ppr: 0.1, code: 0 },
  who: { lexical: 1.0, dense: 0.4, graph: 0.2, ppr: 0.15, code: 0 },
  when: { lexical: 1.0, dense: 0.5, graph: 0.1, ppr: 0.1, code: 0 },
  why: { lexical: 1.0, dense: 0.6, graph: 0.1, ppr: 0.1, code: 0 },
  how: { lexical: 1.0, dense: 0.6, graph: 0.1, ppr: 0.1, code: 0 },
  'where-in-code': { lexical: 1.0, dense: 0.3, graph: 0.2, ppr: 0.15, code: 2.0 },
};
