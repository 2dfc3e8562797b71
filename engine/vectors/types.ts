import type { Logger } from '../host';
import type { HnswlibLoader } from './hnswlib';
import type { WorkerScript } from './workerBuild';

/** One nearest neighbour. `score` is the cosine similarity, in [-1, 1]; higher is closer. */
export interface VectorHit {
  label: number;
  score: number;
}

/** A vector with the integer the caller knows it by (a SQLite row id, say). */
export interface VectorItem {
  label: number;
  vector: Float32Array;
}

/**
 * Why `openVectorIndex` started empty instead of trusting the file:
 * `missing` no file (or no `file` option); `unreadable` not an index file, truncated or damaged;
 * `model-changed` saved for another embedding model; `dimension-changed` saved with another
 * dimension; `count-mismatch` holds a different number of vectors than `expectedCount`;
 * `labels-mismatch` holds a different label set than `expectedLabels`.
 */
export type RebuildReason =
  'missing' | 'unreadable' | 'model-changed' | 'dimension-changed' | 'count-mismatch' | 'labels-mismatch';

/** Where the index is: `exact` brute force only; `building` a worker is building HNSW; `hnsw` the graph answers. */
export type VectorIndexMode = 'exact' | 'building' | 'hnsw';

export interface VectorIndexStats {
  mode: VectorIndexMode;
  /** Live vectors in the HNSW graph. */
  graphSize: number;
  /** Live vectors searched exactly: all of them in `exact` mode, the ones not yet in the graph otherwise. */
  exactSize: number;
  crossover: number;
  /** Worker builds that failed since open; their vectors stay searchable exactly. */
  failedBuilds: number;
}

/**
 * A rebuildable cache over (label, vector) pairs that answers cosine nearest-neighbour queries.
 * Vectors are normalised on the way in, so `score` is the cosine similarity even for vectors the
 * caller did not normalise. Exact search below `crossover` vectors, HNSW above it.
 */
export interface VectorIndex {
  readonly dimension: number;
  readonly modelId: string;
  /** Live vectors (added and not removed). */
  readonly size: number;
  /** True when open found no usable file: the index is empty and the caller must `add` every vector. */
  readonly needsRebuild: boolean;
  /** Why `needsRebuild` is true; null when the file was loaded. */
  readonly rebuildReason: RebuildReason | null;
  /**
   * Upserts by label. The vectors are searchable when the promise resolves; a batch large enough
   * for a background build is searched exactly until the build is swapped in.
   */
  add(items: VectorItem[]): Promise<void>;
  /** Removes labels; unknown labels are ignored. */
  remove(labels: number[]): Promise<void>;
  /** The `k` closest vectors to `query`, best first; `filter` keeps only the labels it accepts. */
  search(query: Float32Array, k: number, filter?: (label: number) => boolean): Promise<VectorHit[]>;
  /** Resolves when no background build is running (each build swapped in or failed). */
  whenBuilt(): Promise<void>;
  /** Persists the index to `file` (temp file, fsync, rename). Waits for a running build first. */
  save(file: string): Promise<void>;
  stats(): VectorIndexStats;
  /** Stops any build and frees the native index. Later calls reject with CLOSED. */
  close(): Promise<void>;
}

export interface OpenVectorIndexOptions {
  dimension: number;
  /** Names the embedding model; a file saved for another model is not trusted. */
  modelId: string;
  /** An index file written by `save`; loaded when it matches, otherwise `needsRebuild` is set. */
  file?: string;
  /** The number of vectors the source of truth holds; a file with another count is stale. */
  expectedCount?: number;
  /** The labels the source of truth holds; a file with another label set is stale. */
  expectedLabels?: Iterable<number>;
  logger: Logger;
  /**
   * The size at which HNSW takes over from exact search.
   * @default DEFAULT_CROSSOVER (see hnswParams.ts for how it was measured)
   */
  crossover?: number;
  /**
   * Adds to an HNSW index of at least this many vectors (and everything added while a build runs)
   * are built in a worker and swapped in; smaller ones go straight into the graph.
   * @default workerBatchFor(graph size): max(32, size / 250), see hnswParams.ts
   */
  workerBatch?: number;
  /** Loads hnswlib on the calling thread. @default the bundled hnswlib-wasm */
  hnswlibLoader?: HnswlibLoader;
  /** The worker script that builds graphs. @default defaultWorkerScripts().vectors (process/workerScripts.ts) */
  worker?: WorkerScript;
}
