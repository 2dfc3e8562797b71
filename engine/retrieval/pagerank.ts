import type { MemoryGraph } from './memoryGraph';

/**
 * Personalised PageRank over the bipartite entity-memory graph by forward push (Andersen, Chung &
 * Lang 2006): mass starts on seed entities, and a node pushes (1 - alpha) of its residual to its
 * neighbours in proportion to link weight, keeping alpha as its score, until every residual is
 * below epsilon times its degree. The work depends on the seeds' neighbourhood, not on the size
 * of the graph, which is what keeps it inside a recall's budget at 100k memories.
 */
export interface PageRankOptions {
  /** Teleport probability (the walk restarts at the seeds). @default 0.15 */
  alpha?: number;
  /** Push threshold per unit of degree. @default 1e-4 */
  epsilon?: number;
  /** Hard cap on pushes, for safety on dense graphs. @default 200000 */
  maxPushes?: number;
}

export interface PageRankResult {
  /** Score per memory dense index (sparse). */
  memories: Map<number, number>;
  /** Score per entity dense index (sparse). */
  entities: Map<number, number>;
  pushes: number;
}

/** `seeds` maps entity dense indexes to personalisation weights (any positive scale). */
export function personalizedPageRank(
  graph: MemoryGraph,
  seeds: Map<number, number>,
  options: PageRankOptions = {},
): PageRankResult {
  const alpha = options.alpha ?? 0.15;
  const epsilon = options.epsilon ?? 1e-4;
  const maxPushes = options.maxPushes ?? 200_000;
  const total = [...seeds.values()].reduce((a, b) => a + b, 0);
  const entities = new Map<number, number>();
  const memories = new Map<number, number>();
  if (total <= 0) return { entities, memories, pushes: 0 };

  // Node keys: entities as e >= 0, memories as -(m + 1). Residuals and scores live in arrays
  // reused across calls (slot e for entities, entityCount + m for memories): Maps cost ~10x per
  // update, and a seed like a speaker's name reaches thousands of memories.
  const slots = scratchFor(graph);
  const { residual, score } = slots;
  const memoryBase = graph.entityCount;
  const slotOf = (key: number) => (key >= 0 ? key : memoryBase - key - 1);
  const touched: number[] = [];
  const queue: number[] = [];
  for (const [entity, weight] of seeds) {
    if (residual[entity] === 0 && score[entity] === 0) touched.push(entity);
    residual[entity] = weight / total;
    queue.push(entity);
  }
  let pushes = 0;
  try {
    while (queue.length > 0 && pushes < maxPushes) {
      const node = queue.pop()!;
      const slot = slotOf(node);
      const r = residual[slot]!;
      const isEntity = node >= 0;
      const index = isEntity ? node : -node - 1;
      const start = isEntity ? graph.entityStart : graph.memoryStart;
      const targets = isEntity ? graph.entityMemories : graph.memoryEntities;
      const weights = isEntity ? graph.entityWeights : graph.memoryWeights;
      const from = start[index]!;
      const to = start[index + 1]!;
      const degree = to - from;
      if (degree === 0 || r < epsilon * degree) continue;
      pushes++;
      residual[slot] = 0;
      score[slot]! += alpha * r;
      let weightSum = 0;
      for (let i = from; i < to; i++) weightSum += weights[i]!;
      const spread = ((1 - alpha) * r) / (weightSum || degree);
      const neighbourStart = isEntity ? graph.memoryStart : graph.entityStart;
      for (let i = from; i < to; i++) {
        const neighbour = targets[i]!;
        const key = isEntity ? -neighbour - 1 : neighbour;
        const target = isEntity ? memoryBase + neighbour : neighbour;
        const before = residual[target]!;
        if (before === 0 && score[target] === 0) touched.push(target);
        const after = before + spread * (weightSum ? weights[i]! : 1);
        residual[target] = after;
        // Queue a node when its residual first crosses its push threshold.
        const threshold = epsilon * Math.max(1, neighbourStart[neighbour + 1]! - neighbourStart[neighbour]!);
        if (after >= threshold && before < threshold) queue.push(key);
      }
    }
    // Residual mass not yet pushed still indicates closeness: add it, as the standard estimate does.
    for (const slot of touched) {
      const r = residual[slot]!;
      const value = r > 0 ? score[slot]! + alpha * r : score[slot]!;
      if (r <= 0 && value === 0) continue;
      if (slot < memoryBase) entities.set(slot, value);
      else memories.set(slot - memoryBase, value);
    }
  } finally {
    for (const slot of touched) residual[slot] = score[slot] = 0;
  }
  return { entities, memories, pushes };
}

const scratch = new WeakMap<MemoryGraph, { residual: Float64Array; score: Float64Array }>();

function scratchFor(graph: MemoryGraph): { residual: Float64Array; score: Float64Array } {
  let slots = scratch.get(graph);
  if (!slots) {
    const size = graph.entityCount + graph.memoryCount;
    slots = { residual: new Float64Array(size), score: new Float64Array(size) };
    scratch.set(graph, slots);
  }
  return slots;
}

/** Scales scores so the largest is 1 (empty stays empty). */
export function normalizeMax(scores: Map<number, number>): Map<number, number> {
  let max = 0;
  for (const value of scores.values()) max = Math.max(max, value);
  if (max <= 0) return new Map();
  return new Map([...scores].map(([key, value]) => [key, value / max]));
}

/**
 * Memory-biased PPR (after ENGRAM's memory service): phase 1 seeded from the query's entities,
 * phase 2 from the entity weights accumulated by past recalls; normalised and blended.
 */
export function memoryBiasedPageRank(
  graph: MemoryGraph,
  querySeeds: Map<number, number>,
  memorySeeds: Map<number, number>,
  blend: { query: number; memory: number } = { query: 0.7, memory: 0.3 },
  options: PageRankOptions = {},
): Map<number, number> {
  const phase1 = normalizeMax(personalizedPageRank(graph, querySeeds, options).memories);
  if (memorySeeds.size === 0) return phase1;
  const phase2 = normalizeMax(personalizedPageRank(graph, memorySeeds, options).memories);
  const blended = new Map<number, number>();
  for (const [m, s] of phase1) blended.set(m, blend.query * s);
  for (const [m, s] of phase2) blended.set(m, (blended.get(m) ?? 0) + blend.memory * s);
  return blended;
}
