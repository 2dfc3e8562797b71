import type { Layer, Trust } from '../memory/types';
import { TRUST_SCORE } from './retention';

/**
 * A memory's importance as a composite of factors, each between 0 and 1 and stored with its
 * weight, so that `explain` can show why a memory is kept or archived (seed 003's factors, without
 * emotional valence, which nothing here measures). The stored `importance` column is the base
 * (set at write time, adjusted there by surprise); this composite is computed from it.
 */
export const IMPORTANCE_WEIGHTS = {
  base: 0.3,
  accessFrequency: 0.2,
  recency: 0.15,
  entityLinkage: 0.1,
  sourceTrust: 0.1,
  stability: 0.05,
  layer: 0.05,
  confirmations: 0.05,
} as const;
export type ImportanceFactor = keyof typeof IMPORTANCE_WEIGHTS;

/** Semantic and procedural knowledge weighs more than an episode; a working note least. */
const LAYER_VALUE: Record<Layer, number> = {
  semantic: 1,
  procedural: 1,
  codebase: 0.8,
  episodic: 0.6,
  working: 0.4,
};

export interface ImportanceInput {
  base: number;
  accessCount: number;
  /** Retention now (retention.ts): recency, trust-weighted. */
  retention: number;
  entityCount: number;
  trust: Trust;
  /** Distinct days on which the memory was read or recalled. */
  accessDays: number;
  layer: Layer;
  confirmations: number;
  /** What the last belief probe found (beliefProbe.ts): evidence against scales the score down. */
  probe?: 'confirmed' | 'against' | 'unverifiable';
}

export interface ImportanceExplanation {
  score: number;
  /** Set when a belief probe found evidence against the memory: the sum above times `multiplier`. */
  probe?: { outcome: 'against'; multiplier: number };
  factors: Array<{ factor: ImportanceFactor; value: number; weight: number; contribution: number }>;
}

/** These many recalls count as frequent (log scale), entities as richly linked, days as stable. */
const FREQUENT_ACCESSES = 20;
const RICH_LINKS = 5;
const STABLE_DAYS = 5;
const CONFIRMED = 3;
/** Evidence against a belief (a drift finding on a probe) halves its importance. */
export const AGAINST_MULTIPLIER = 0.5;

export function importanceOf(input: ImportanceInput): ImportanceExplanation {
  const values: Record<ImportanceFactor, number> = {
    base: clamp(input.base),
    accessFrequency: clamp(Math.log1p(input.accessCount) / Math.log1p(FREQUENT_ACCESSES)),
    recency: clamp(input.retention),
    entityLinkage: clamp(input.entityCount / RICH_LINKS),
    sourceTrust: TRUST_SCORE[input.trust],
    stability: clamp(input.accessDays / STABLE_DAYS),
    layer: LAYER_VALUE[input.layer],
    confirmations: clamp((input.confirmations - 1) / CONFIRMED),
  };
  const factors = (Object.keys(IMPORTANCE_WEIGHTS) as ImportanceFactor[]).map((factor) => {
    const weight = IMPORTANCE_WEIGHTS[factor];
    const value = values[factor];
    return { factor, value: round(value), weight, contribution: round(value * weight) };
  });
  const sum = factors.reduce((total, f) => total + values[f.factor] * f.weight, 0);
  if (input.probe !== 'against') return { score: round(sum), factors };
  const multiplier = AGAINST_MULTIPLIER;
  return { score: round(sum * multiplier), factors, probe: { outcome: 'against', multiplier } };
}

function clamp(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
