/**
 * Seeded, clustered unit vectors: a stand-in for sentence embeddings, which form topical clusters
 * rather than filling the sphere uniformly (uniform random vectors make every neighbour almost
 * equally far and HNSW look worse than it is on real data). Shared by the tests and the benchmark.
 */
import { seededRandom } from '../support/seededRandom';

/** A standard normal sample (Box-Muller). */
function gaussian(random: () => number): number {
  const u = Math.max(random(), Number.MIN_VALUE);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

export function normalize(vector: Float32Array): Float32Array {
  let squared = 0;
  for (const x of vector) squared += x * x;
  const scale = 1 / Math.sqrt(squared);
  for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! * scale;
  return vector;
}

export function randomUnitVector(random: () => number, dimension: number): Float32Array {
  const vector = new Float32Array(dimension);
  for (let i = 0; i < dimension; i++) vector[i] = gaussian(random);
  return normalize(vector);
}

export interface ClusteredVectors {
  /** Draws the next vector: a random cluster centre plus noise, normalised. */
  next(): Float32Array;
  /** `count` vectors labelled `firstLabel`, `firstLabel + 1`, ... */
  items(count: number, firstLabel?: number): Array<{ label: number; vector: Float32Array }>;
}

/**
 * Vectors around `clusters` random centres. `spread` is the noise norm relative to the centre's
 * (1 gives a cosine of about 0.7 to the centre and 0.5 between members of a cluster).
 */
export function clusteredVectors(options: {
  seed: number;
  dimension: number;
  clusters?: number;
  spread?: number;
}): ClusteredVectors {
  const { dimension, clusters = 64, spread = 1 } = options;
  const random = seededRandom(options.seed);
  const centres = Array.from({ length: clusters }, () => randomUnitVector(random, dimension));
  const sigma = spread / Math.sqrt(dimension);
  const next = () => {
    const centre = centres[Math.floor(random() * clusters)]!;
    const vector = new Float32Array(dimension);
    for (let i = 0; i < dimension; i++) vector[i] = centre[i]! + sigma * gaussian(random);
    return normalize(vector);
  };
  return {
    next,
    items: (count, firstLabel = 0) =>
      Array.from({ length: count }, (_, i) => ({ label: firstLabel + i, vector: next() })),
  };
}

/** Brute-force top-k by dot product, sorting everything: the reference the index is checked against. */
export function bruteForce(
  items: ReadonlyArray<{ label: number; vector: Float32Array }>,
  query: Float32Array,
  k: number,
  filter?: (label: number) => boolean,
): Array<{ label: number; score: number }> {
  const scored = items
    .filter((item) => !filter || filter(item.label))
    .map(({ label, vector }) => {
      let score = 0;
      for (let i = 0; i < vector.length; i++) score += vector[i]! * query[i]!;
      return { label, score };
    });
  return scored.sort((a, b) => b.score - a.score || a.label - b.label).slice(0, k);
}

/** The share of `truth`'s labels that `found` contains. */
export function recall(
  found: ReadonlyArray<{ label: number }>,
  truth: ReadonlyArray<{ label: number }>,
): number {
  if (truth.length === 0) return 1;
  const labels = new Set(found.map((hit) => hit.label));
  return truth.filter((hit) => labels.has(hit.label)).length / truth.length;
}
