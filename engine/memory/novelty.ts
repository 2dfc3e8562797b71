/** What the write path learns from a memory's embedding before its transaction. */
export interface EmbeddedText {
  vector: Float32Array;
  /** The closest stored memories (current model), best first, with cosine similarity. */
  nearest: Array<{ memoryId: string; score: number }>;
}

/** Cosine similarity at which a semantic or procedural memory counts as a restatement. */
export const DEFAULT_NEAR_DUPLICATE_THRESHOLD = 0.92;
/** Neighbours the surprise score averages over. */
export const SURPRISE_NEIGHBOURS = 5;
/** How far surprise moves a defaulted importance: +-0.1 at the extremes. */
const SURPRISE_WEIGHT = 0.2;

/** Layers whose memories are claims that a restatement updates; the others hold distinct records. */
export const NEAR_DUPLICATE_LAYERS: ReadonlySet<string> = new Set(['semantic', 'procedural']);

/**
 * 1 - the mean similarity to the nearest memories: 0 for what is already known, 1 for what is
 * unlike anything stored (also when nothing is stored yet). Missing neighbours count as unrelated,
 * so a sparse store does not make everything look familiar.
 */
export function surpriseOf(
  nearest: ReadonlyArray<{ score: number }>,
  neighbours = SURPRISE_NEIGHBOURS,
): number {
  let sum = 0;
  for (const hit of nearest.slice(0, neighbours)) sum += Math.max(0, Math.min(1, hit.score));
  return round(1 - sum / neighbours);
}

/** A defaulted importance nudged by surprise: novel memories up, familiar ones down. */
export function importanceWithSurprise(importance: number, surprise: number): number {
  return round(Math.max(0, Math.min(1, importance + SURPRISE_WEIGHT * (surprise - 0.5))));
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
