import type { ReferenceGraph } from './referenceGraph';
import { weightedPageRank } from './weightedPageRank';

export interface RankingSeeds {
  /** Files the walk restarts at (open in the editor, named by the query). */
  files: number[];
  /** Identifiers the query names: their definers are seeds and edges through them count more. */
  identifiers: string[];
}

export interface RepoRanking {
  /** PageRank per file node, summing to 1. */
  files: Float64Array;
  /** Per file node, the rank its symbols received by name: the share of rank flowing to them. */
  symbols: Map<number, Map<string, number>>;
}

/** An edge through an identifier the query names counts this much more. */
const MENTIONED_BOOST = 10;
/** `_private` names are implementation detail, rarely what a map reader needs. */
const PRIVATE_DAMPING = 0.1;

/**
 * Ranks files by PageRank over the reference graph and symbols by the rank that reaches them.
 * An edge A -> B through identifier n weighs sqrt(uses of n in A) / (files defining n): repeated
 * uses matter with diminishing returns, and a name defined in several files splits its vote.
 * Then each file passes its rank to the symbols its out-edges name, in proportion to their
 * weight, so a symbol's rank is how much of the graph's attention flows into it.
 */
export function rankRepository(graph: ReferenceGraph, seeds: RankingSeeds): RepoRanking {
  const n = graph.paths.length;
  const { from, to, name, count } = graph.edges;
  const mentioned = new Set(seeds.identifiers);
  const weight = new Float64Array(from.length);
  for (let e = 0; e < from.length; e++) {
    const index = name[e]!;
    if (index < 0) {
      weight[e] = 1;
      continue;
    }
    const identifier = graph.names[index]!;
    let w = Math.sqrt(count[e]!) / (graph.definers.get(identifier)?.length ?? 1);
    if (mentioned.has(identifier)) w *= MENTIONED_BOOST;
    if (identifier.startsWith('_')) w *= PRIVATE_DAMPING;
    weight[e] = w;
  }

  const personalization = new Float64Array(n);
  for (const file of seeds.files) personalization[file] = 1;
  for (const identifier of seeds.identifiers) {
    const definers = graph.definers.get(identifier) ?? [];
    for (const file of definers) personalization[file]! += 1 / definers.length;
  }
  const files = weightedPageRank({ nodes: n, from, to, weight }, personalization);

  const outWeight = new Float64Array(n);
  for (let e = 0; e < from.length; e++) outWeight[from[e]!]! += weight[e]!;
  const symbols = new Map<number, Map<string, number>>();
  for (let e = 0; e < from.length; e++) {
    const index = name[e]!;
    if (index < 0) continue;
    const source = from[e]!;
    const share = (files[source]! * weight[e]!) / outWeight[source]!;
    const target = to[e]!;
    let byName = symbols.get(target);
    if (!byName) symbols.set(target, (byName = new Map<string, number>()));
    const identifier = graph.names[index]!;
    byName.set(identifier, (byName.get(identifier) ?? 0) + share);
  }
  return { files, symbols };
}
