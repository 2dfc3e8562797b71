import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryGraph } from '../../engine/retrieval/memoryGraph';
import { memoryBiasedPageRank, personalizedPageRank } from '../../engine/retrieval/pagerank';
import type { SqlReader } from '../../engine/store/sqlAccess';

/** A reader that serves the memories and memory_entities rows of `links`, to build graphs by hand. */
function graphOf(links: Array<[memory: string, entity: number, weight?: number]>): MemoryGraph {
  const rows = links.map(([memoryId, entityId, weight], link) => ({
    link: link + 1,
    memoryId,
    entityId,
    weight: weight ?? 1,
  }));
  const memories = [...new Set(links.map(([memory]) => memory))].map((id, row) => ({ row: row + 1, id }));
  const all = (sql: string) => (sql.includes('FROM memories') ? memories : rows);
  const reader = { all, get: () => undefined, value: () => undefined } as unknown as SqlReader;
  return MemoryGraph.load(reader, 1);
}

/** Dense power iteration of the same walk, for comparison with forward push. */
function powerIteration(
  graph: MemoryGraph,
  seeds: Map<number, number>,
  alpha: number,
  iterations = 200,
): Map<number, number> {
  const E = graph.entityCount;
  const M = graph.memoryCount;
  const total = [...seeds.values()].reduce((a, b) => a + b, 0);
  const personal = new Float64Array(E + M);
  for (const [e, w] of seeds) personal[e] = w / total;
  let rank = Float64Array.from(personal);
  for (let it = 0; it < iterations; it++) {
    const next = new Float64Array(E + M);
    for (let e = 0; e < E; e++) {
      const from = graph.entityStart[e]!,
        to = graph.entityStart[e + 1]!;
      let sum = 0;
      for (let i = from; i < to; i++) sum += graph.entityWeights[i]!;
      for (let i = from; i < to; i++)
        next[E + graph.entityMemories[i]!]! += (1 - alpha) * rank[e]! * (graph.entityWeights[i]! / sum);
    }
    for (let m = 0; m < M; m++) {
      const from = graph.memoryStart[m]!,
        to = graph.memoryStart[m + 1]!;
      let sum = 0;
      for (let i = from; i < to; i++) sum += graph.memoryWeights[i]!;
      for (let i = from; i < to; i++)
        next[graph.memoryEntities[i]!]! += (1 - alpha) * rank[E + m]! * (graph.memoryWeights[i]! / sum);
    }
    for (let n = 0; n < E + M; n++) next[n]! += alpha * personal[n]!;
    rank = next;
  }
  return new Map(Array.from({ length: M }, (_, m) => [m, rank[E + m]!]));
}

describe('personalised PageRank (forward push)', () => {
  // Two clusters joined by memory m3: {e0, e1} with m0..m2, {e2, e3} with m4..m6.
  const graph = graphOf([
    ['m0', 10],
    ['m0', 11],
    ['m1', 10],
    ['m2', 11],
    ['m3', 11],
    ['m3', 12],
    ['m4', 12],
    ['m4', 13],
    ['m5', 12],
    ['m6', 13],
  ]);
  const e = (id: number) => graph.entityIndex.get(id)!;
  const m = (id: string) => graph.memoryIndex.get(id)!;

  it('converges to the power-iteration solution', () => {
    const seeds = new Map([[e(10), 1]]);
    const pushed = personalizedPageRank(graph, seeds, { alpha: 0.15, epsilon: 1e-9 }).memories;
    const exact = powerIteration(graph, seeds, 0.15);
    // Forward push returns alpha-scaled visit mass; compare rankings and proportions.
    const scale = exact.get(m('m0'))! / pushed.get(m('m0'))!;
    for (const [node, value] of exact)
      assert.ok(Math.abs((pushed.get(node) ?? 0) * scale - value) < 1e-4, `memory ${node}`);
  });

  it('is personalised: seeds decide which cluster ranks first', () => {
    const left = personalizedPageRank(graph, new Map([[e(10), 1]])).memories;
    const right = personalizedPageRank(graph, new Map([[e(13), 1]])).memories;
    assert.ok((left.get(m('m1')) ?? 0) > (left.get(m('m5')) ?? 0));
    assert.ok((right.get(m('m5')) ?? 0) > (right.get(m('m1')) ?? 0));
  });

  it('blends the query seeds 0.7 with the accumulated memory seeds 0.3', () => {
    const query = new Map([[e(10), 1]]);
    const memory = new Map([[e(13), 1]]);
    const plain = memoryBiasedPageRank(graph, query, new Map());
    const biased = memoryBiasedPageRank(graph, query, memory);
    // The memory bias lifts the other cluster without overturning the query's own top result.
    assert.ok((biased.get(m('m6')) ?? 0) > (plain.get(m('m6')) ?? 0));
    const top = (scores: Map<number, number>) => [...scores].sort((a, b) => b[1] - a[1])[0]![0];
    assert.equal(top(biased), top(plain));
  });

  it('never reaches a disconnected component, and a coarser epsilon does less work', () => {
    const withIsland = graphOf([
      ['m0', 10],
      ['m1', 10],
      ['m1', 11],
      ['m2', 11],
      ['x0', 20],
      ['x1', 20],
      ['x1', 21],
    ]);
    const seeds = new Map([[withIsland.entityIndex.get(10)!, 1]]);
    const fine = personalizedPageRank(withIsland, seeds, { epsilon: 1e-8 });
    const coarse = personalizedPageRank(withIsland, seeds, { epsilon: 0.05 });
    for (const island of ['x0', 'x1'])
      assert.equal(fine.memories.get(withIsland.memoryIndex.get(island)!), undefined);
    assert.ok(coarse.pushes < fine.pushes, `${coarse.pushes} < ${fine.pushes}`);
  });
});
