import { KINDS, LAYERS } from '../memory/types';
import type { Memory, Trust } from '../memory/types';
import type { Intent } from './queryAnalysis';

/**
 * Multiplicative adjustments applied after fusion. Fused RRF scores of neighbouring ranks differ by
 * under 2% (1/61 vs 1/62), so full-strength factors would reshuffle the top ten by recency alone:
 * each factor below is within about +-20% and the total is applied damped (see `applied`), which
 * makes boosts order near-ties without outvoting relevance.
 */
export interface BoostContext {
  intent: Intent;
  now: number;
  session?: string;
}

export interface Boosts {
  importance: number;
  recency: number;
  pinned: number;
  session: number;
  layer: number;
  negative: number;
  total: number;
}

const DAY = 24 * 60 * 60 * 1000;

/** How long until recency weighs half: human-written memories decay slowest. */
export const HALF_LIFE_DAYS: Record<Trust, number> = {
  human: 365,
  agent: 120,
  ingest: 60,
  consolidation: 30,
  model: 30,
};

/**
 * Recency of what the memory is about (valid time), not of when it was last read: counting reads
 * here would let every recall promote its own results.
 */
export function recencyFactor(memory: Pick<Memory, 'trust' | 'validFrom'>, now: number): number {
  const ageDays = Math.max(0, now - memory.validFrom) / DAY;
  return 0.9 + 0.2 * Math.pow(0.5, ageDays / HALF_LIFE_DAYS[memory.trust]);
}

export function boostsFor(
  memory: Pick<
    Memory,
    'importance' | 'trust' | 'validFrom' | 'pinned' | 'critical' | 'session' | 'layer' | 'kind'
  >,
  context: BoostContext,
): Boosts {
  const importance = 0.9 + 0.2 * memory.importance;
  const recency = recencyFactor(memory, context.now);
  const pinned = memory.pinned || memory.critical ? 1.15 : 1;
  const session = context.session !== undefined && memory.session === context.session ? 1.1 : 1;
  const layer = layerFactor(memory, context.intent);
  const negative = memory.kind === 'negative' ? NEGATIVE_FACTOR : 1;
  return {
    importance,
    recency,
    pinned,
    session,
    layer,
    negative,
    total: applied(importance * recency * pinned * session * layer * negative),
  };
}

/**
 * The largest `total` boostsFor can give in this context: the best of every layer and kind at
 * importance 1 (the most a write accepts), written now, pinned, in the asked session. Recall
 * stops reading candidates whose fused score times this cannot reach its k-th hit (rankPool.ts).
 */
export function boostCeiling(context: BoostContext): number {
  // It depends on the intent and on whether a session is asked (recency at age 0 is the same at
  // any time): computed once for each.
  const key = `${context.intent}|${context.session !== undefined}`;
  let ceiling = ceilings.get(key);
  if (ceiling === undefined) ceilings.set(key, (ceiling = highestBoost(context)));
  return ceiling;
}

const ceilings = new Map<string, number>();

function highestBoost(context: BoostContext): number {
  let ceiling = 0;
  for (const layer of LAYERS)
    for (const kind of KINDS) {
      const best = { importance: 1, trust: 'human' as const, validFrom: context.now, pinned: true };
      const memory = { ...best, critical: true, session: context.session ?? null, layer, kind };
      ceiling = Math.max(ceiling, boostsFor(memory, context).total);
    }
  return ceiling;
}

/**
 * A negative memory ("there is no Redis cache") that the query's words found is worth more than
 * its rank says: it is the one answer that stops an agent from building on a thing that does not
 * exist, and its wording ("no", "never") shares fewer terms with a question about the thing than
 * the memories that merely mention it. Damped like the others: about three ranks among near-ties.
 */
const NEGATIVE_FACTOR = 1.3;

/** Damping of the combined factor: x1.2 becomes x1.03, enough to move about two ranks. */
export const BOOST_DAMPING = 0.15;

function applied(raw: number): number {
  return 1 + BOOST_DAMPING * (raw - 1);
}

function layerFactor(memory: Pick<Memory, 'layer' | 'kind'>, intent: Intent): number {
  if (intent === 'where-in-code') return memory.layer === 'codebase' ? 1.2 : 1;
  if (intent === 'why') return memory.kind === 'decision' ? 1.15 : 1;
  if (intent === 'how') return memory.layer === 'procedural' || memory.kind === 'procedure' ? 1.15 : 1;
  if (intent === 'when') return memory.layer === 'episodic' ? 1.05 : 1;
  return 1;
}
