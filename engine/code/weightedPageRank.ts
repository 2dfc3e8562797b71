/**
 * Personalised PageRank by power iteration over a weighted directed graph held as edge arrays.
 *
 * Written here rather than taken from npm: graphology-metrics' pagerank (and graphology-pagerank)
 * has no personalisation vector, which the repo map needs, and wrapping our arrays in a graphology
 * Graph would cost more code than the twenty lines of the iteration itself. The entity-memory
 * PageRank in engine/retrieval/pagerank.ts is a local push from a few seeds; the repo map wants the
 * whole graph's ranking, which power iteration gives in a few dozen sparse passes.
 */
export interface WeightedEdges {
  nodes: number;
  from: Int32Array;
  to: Int32Array;
  weight: Float64Array;
}

export interface PowerIterationOptions {
  /** Probability of following an edge rather than teleporting. @default 0.85 */
  damping?: number;
  /** Stop when the L1 change of a pass is below this. @default 1e-6 */
  tolerance?: number;
  /** @default 100 */
  maxIterations?: number;
}

/**
 * Ranks summing to 1. `personalization` (any non-negative scale, length `nodes`) is where the walk
 * teleports to and where dangling nodes (no out-edges) send their mass; all zero means uniform.
 */
export function weightedPageRank(
  graph: WeightedEdges,
  personalization: Float64Array,
  options: PowerIterationOptions = {},
): Float64Array {
  const n = graph.nodes;
  const damping = options.damping ?? 0.85;
  const tolerance = options.tolerance ?? 1e-6;
  const maxIterations = options.maxIterations ?? 100;
  if (n === 0) return new Float64Array(0);
  const teleport = normalised(personalization, n);
  const outWeight = new Float64Array(n);
  for (let e = 0; e < graph.from.length; e++) outWeight[graph.from[e]!]! += graph.weight[e]!;

  let rank = Float64Array.from(teleport);
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    const next = new Float64Array(n);
    let dangling = 0;
    for (let v = 0; v < n; v++) if (outWeight[v] === 0) dangling += rank[v]!;
    for (let e = 0; e < graph.from.length; e++) {
      const source = graph.from[e]!;
      next[graph.to[e]!]! += (damping * rank[source]! * graph.weight[e]!) / outWeight[source]!;
    }
    let change = 0;
    for (let v = 0; v < n; v++) {
      next[v]! += (damping * dangling + (1 - damping)) * teleport[v]!;
      change += Math.abs(next[v]! - rank[v]!);
    }
    rank = next;
    if (change < tolerance) break;
  }
  return rank;
}

function normalised(values: Float64Array, n: number): Float64Array {
  let total = 0;
  for (const value of values) total += value > 0 ? value : 0;
  const out = new Float64Array(n);
  for (let v = 0; v < n; v++) out[v] = total > 0 ? Math.max(0, values[v] ?? 0) / total : 1 / n;
  return out;
}
