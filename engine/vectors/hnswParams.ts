/** HNSW construction and search parameters, chosen with test/bench/vectorBench.ts on this machine. */
export interface HnswParams {
  /** Graph degree: links per node per layer (twice that on the base layer). */
  m: number;
  /** Candidate list size while inserting: higher builds a better graph, more slowly. */
  efConstruction: number;
  /** Candidate list size while searching (raised to k when k is larger). */
  efSearch: number;
  /** Fixed so two builds of the same vectors in the same order give the same graph. */
  seed: number;
}

export const DEFAULT_HNSW_PARAMS: Readonly<HnswParams> = {
  m: 16,
  efConstruction: 128,
  efSearch: 64,
  seed: 100,
};

/**
 * With a filter, hnswlib skips rejected labels while it walks the graph; a candidate list of
 * `k * FILTER_EF_FACTOR` keeps recall up when many of the nearest nodes are rejected.
 */
export const FILTER_EF_FACTOR = 8;

/**
 * The index size at which HNSW takes over from exact search.
 *
 * Measured with `node --import tsx test/bench/vectorBench.ts --crossover-only`: clustered unit
 * vectors (seeded), 200 queries per size after 20 warm-up queries, exact = the contiguous
 * Float32Array scan in exactStore.ts, HNSW = hnswlib-wasm with the parameters above, top-10.
 * See the benchmark output for the table; HNSW's p50 beats exact by at least 2x from this size
 * on at 384-d and 512-d. Below it exact is as fast or faster, needs no build, and is exact.
 */
export const DEFAULT_CROSSOVER = 2_000;

/**
 * When an add to an HNSW index of `graphSize` vectors goes to a worker instead of straight into
 * the graph. Both stall the caller's thread: a direct insert for 1-5 ms per vector at 512-d
 * (hnswlib-wasm converts each vector element by element through embind), a worker build for the
 * serialization of the base graph and the load of the result, each ~0.012-0.015 ms per indexed
 * vector (153 and 119 ms at 10k x 512-d). Equal stalls at about graphSize / 250 vectors; never
 * fewer than WORKER_BATCH_MIN, since a worker round trip has fixed costs too.
 */
export function workerBatchFor(graphSize: number): number {
  return Math.max(WORKER_BATCH_MIN, Math.ceil(graphSize / 250));
}

export const WORKER_BATCH_MIN = 32;
