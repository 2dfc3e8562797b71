import type { Layer, Trust } from '../memory/types';

/**
 * How much of a memory is retained as it ages: the forgetting curve of the lifecycle (issue 21,
 * seeds 000 and 003). Episodic and working memories fade; semantic, procedural and codebase
 * memories and pinned or critical ones do not.
 */

/** How far each source is trusted (human-written most): low trust decays faster. */
export const TRUST_SCORE: Record<Trust, number> = {
  human: 1,
  agent: 0.7,
  ingest: 0.5,
  consolidation: 0.4,
  // A model's reading of the members, below the extractive gist that quotes them.
  model: 0.3,
};

/** `exponential`: Ebbinghaus. `huber`: exponential, then linear (no endless tail). `elastic`: sparse. */
export const RETENTION_CURVES = ['exponential', 'huber', 'elastic'] as const;
export type RetentionCurve = (typeof RETENTION_CURVES)[number];

export interface RetentionSettings {
  curve: RetentionCurve;
  /** Days until a human-written memory keeps half (other sources sooner, see decayRate). */
  halfLifeDays: number;
  /** How much faster untrusted sources decay: lambda_eff = lambda * (1 + kappa * (1 - trust)). */
  kappa: number;
  /** huber: where the curve turns linear, in half-lives. */
  huberDelta: number;
  /** elastic: the share of the linear (L1) part. */
  elasticL1Ratio: number;
  /** Retention added by recalls, log-scaled (spaced repetition), at most this much. */
  maxReinforcement: number;
}

/** The seeds' defaults (003: 30-day half-life, huber at 0.5 half-lives, kappa 2, +0.3 at most). */
export const DEFAULT_RETENTION: RetentionSettings = {
  curve: 'huber',
  halfLifeDays: 30,
  kappa: 2,
  huberDelta: 0.5,
  elasticL1Ratio: 0.3,
  maxReinforcement: 0.3,
};

/** Layers whose memories fade with age; the rest are kept until something says otherwise. */
export const DECAYING_LAYERS: ReadonlySet<Layer> = new Set<Layer>(['working', 'episodic']);

/** Per-day decay rate for a source: ln 2 / half-life, faster the less it is trusted. */
export function decayRate(trust: Trust, settings: RetentionSettings = DEFAULT_RETENTION): number {
  const lambda = Math.LN2 / settings.halfLifeDays;
  return lambda * (1 + settings.kappa * (1 - TRUST_SCORE[trust]));
}

/** The curve alone: 1 at age 0, falling with age (days) at `rate` per day; never below 0. */
export function curveValue(ageDays: number, rate: number, settings: RetentionSettings): number {
  const t = Math.max(0, ageDays);
  switch (settings.curve) {
    case 'exponential':
      return Math.exp(-rate * t);
    case 'huber': {
      // Exponential up to the turn, then on along its tangent: a memory once fresh does not linger
      // forever in a long tail, and one just past the turn is not cut off either.
      const turn = (settings.huberDelta * Math.LN2) / rate;
      if (t <= turn) return Math.exp(-rate * t);
      const atTurn = Math.exp(-rate * turn);
      return Math.max(0, atTurn * (1 - rate * (t - turn)));
    }
    case 'elastic': {
      // L1 + L2: the exponential slowed by the L1 share, times a linear fall that ends at zero, so
      // weakly held memories separate from the kept ones instead of fading alike.
      const ratio = settings.elasticL1Ratio;
      return Math.exp(-rate * (1 - ratio) * t) * Math.max(0, 1 - ratio * rate * t);
    }
  }
}

export interface RetentionInput {
  layer: Layer;
  trust: Trust;
  pinned: boolean;
  critical: boolean;
  /** Days since the memory was written or last recalled, whichever is later. */
  ageDays: number;
  accessCount: number;
}

/** Retention between 0 and 1 (1 for memories that do not decay). */
export function retentionOf(input: RetentionInput, settings: RetentionSettings = DEFAULT_RETENTION): number {
  if (!DECAYING_LAYERS.has(input.layer) || input.pinned || input.critical) return 1;
  const base = curveValue(input.ageDays, decayRate(input.trust, settings), settings);
  return Math.min(1, base + reinforcement(input.accessCount, settings));
}

/** What recalls add: log-scaled, capped (the tenth recall adds less than the first). */
export function reinforcement(accessCount: number, settings: RetentionSettings = DEFAULT_RETENTION): number {
  return Math.min(settings.maxReinforcement, 0.1 * Math.log1p(Math.max(0, accessCount)));
}
