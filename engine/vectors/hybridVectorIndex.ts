import { EngramError } from '../errors';
import type { Logger } from '../host';
import { ExactStore } from './exactStore';
import { HnswGraph } from './hnswGraph';
import type { HnswLibrary, HnswlibLoader } from './hnswlib';
import { workerBatchFor } from './hnswParams';
import type { HnswParams } from './hnswParams';
import { writeIndexFile } from './indexFile';
import type { ExactSection, IndexFileContents } from './indexFile';
import { labelChecksum } from './labelChecksum';
import type {
  RebuildReason,
  VectorHit,
  VectorIndex,
  VectorIndexMode,
  VectorIndexStats,
  VectorItem,
} from './types';
import { checkItems, checkK, checkLabels, unitVector } from './vectorInput';
import { buildInWorker } from './workerBuild';
import type { WorkerScript } from './workerBuild';

export interface IndexConfig {
  dimension: number;
  modelId: string;
  crossover: number;
  /** A fixed worker-batch size; null for `workerBatchFor(graph size)`. */
  workerBatch: number | null;
  params: HnswParams;
  logger: Logger;
  loader: HnswlibLoader;
  worker: WorkerScript;
}

/** A background build: labels touched after its snapshot are reconciled when it is swapped in. */
interface Build {
  readonly dirty: Set<number>;
  done: Promise<void>;
  cancel: () => Promise<void>;
}

/**
 * Exact search over an `ExactStore` until `crossover` vectors, then an HNSW graph built in a
 * worker. Invariant: a live label is in exactly one of `graph` and `exact`; a search asks both
 * and merges. `exact` holds everything below the crossover, and otherwise the vectors that are
 * waiting for (or arrived during) a worker build, so they are searchable at once.
 */
export class HybridVectorIndex implements VectorIndex {
  readonly dimension: number;
  readonly modelId: string;
  readonly needsRebuild: boolean;
  private readonly exact: ExactStore;
  private graph: HnswGraph | null = null;
  private lib: HnswLibrary | null = null;
  private build: Build | null = null;
  private failedBuilds = 0;
  /** After a failed build, the exact size at which to try again (so a broken worker is not respawned per add). */
  private retryAt = 0;
  private closed = false;

  constructor(
    private readonly config: IndexConfig,
    readonly rebuildReason: RebuildReason | null,
  ) {
    this.dimension = config.dimension;
    this.modelId = config.modelId;
    this.needsRebuild = rebuildReason !== null;
    this.exact = new ExactStore(config.dimension);
  }

  get size(): number {
    return (this.graph?.size ?? 0) + this.exact.size;
  }

  add(items: VectorItem[]): Promise<void> {
    return settle(() => this.addNow(items));
  }

  remove(labels: number[]): Promise<void> {
    return settle(() => {
      this.assertOpen();
      for (const label of checkLabels(labels)) {
        this.build?.dirty.add(label);
        if (!this.exact.remove(label)) this.graph?.remove(label);
      }
    });
  }

  search(query: Float32Array, k: number, filter?: (label: number) => boolean): Promise<VectorHit[]> {
    return settle(() => this.searchNow(query, k, filter));
  }

  async whenBuilt(): Promise<void> {
    while (this.build) await this.build.done;
  }

  async save(file: string): Promise<void> {
    this.assertOpen();
    await this.whenBuilt();
    this.assertOpen();
    // Captured at the instant the graph is serialized, so header, graph and exact section agree.
    let captured: { exact: ExactSection | null; count: number; checksum: string } | undefined;
    const capture = () => {
      captured = {
        exact: this.exact.size > 0 ? this.exact.snapshot() : null,
        count: this.size,
        checksum: labelChecksum(this.allLabels()),
      };
    };
    const { m, efConstruction } = this.config.params;
    const hnsw = this.graph ? { bytes: await this.graph.extract(capture), m, efConstruction } : null;
    if (!hnsw) capture();
    const { exact, count, checksum } = captured!;
    await writeIndexFile(
      file,
      { modelId: this.modelId, dimension: this.dimension, count, labelChecksum: checksum },
      { hnsw, exact },
    );
    this.config.logger.debug('vector index saved', { file, count, hnswBytes: hnsw?.bytes.byteLength ?? 0 });
  }

  stats(): VectorIndexStats {
    const mode: VectorIndexMode = this.build ? 'building' : this.graph ? 'hnsw' : 'exact';
    return {
      mode,
      graphSize: this.graph?.size ?? 0,
      exactSize: this.exact.size,
      crossover: this.config.crossover,
      failedBuilds: this.failedBuilds,
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const build = this.build;
    if (build) {
      await build.cancel();
      await build.done;
    }
    this.graph?.dispose();
    this.graph = null;
    this.exact.clear();
  }

  /** Fills the index from a checked file; throws when its content contradicts its header. */
  async load(contents: IndexFileContents): Promise<void> {
    const { header, hnsw, exact } = contents;
    if (hnsw) {
      const lib = await this.library();
      this.graph = await HnswGraph.fromBytes(
        lib,
        this.config.logger,
        this.dimension,
        this.config.params,
        hnsw,
      );
    }
    if (exact) {
      for (let i = 0; i < exact.labels.length; i++) {
        this.exact.upsert(
          exact.labels[i]!,
          exact.vectors.subarray(i * this.dimension, (i + 1) * this.dimension),
        );
      }
    }
    if (this.size !== header.count || labelChecksum(this.allLabels()) !== header.labelChecksum) {
      throw new EngramError(
        'CORRUPT',
        `the index holds ${this.size} vectors whose labels do not match its header`,
      );
    }
    this.maybeStartBuild();
  }

  private addNow(items: VectorItem[]): void {
    this.assertOpen();
    const batch = checkItems(items, this.dimension);
    if (batch.length === 0) return;
    if (this.graph && !this.build && batch.length < this.workerBatch(this.graph)) {
      for (const { label } of batch) this.exact.remove(label);
      this.graph.upsert(batch);
      return;
    }
    for (const { label, vector } of batch) {
      this.build?.dirty.add(label);
      this.graph?.remove(label);
      this.exact.upsert(label, vector);
    }
    this.maybeStartBuild();
  }

  private searchNow(query: Float32Array, k: number, filter?: (label: number) => boolean): VectorHit[] {
    this.assertOpen();
    checkK(k);
    const unit = unitVector(query, this.dimension, 'the query');
    if (k === 0) return [];
    const exactHits = this.exact.search(unit, k, filter);
    if (!this.graph) return exactHits.map(clampScore);
    const hits = [...this.searchGraph(this.graph, unit, k, filter), ...exactHits];
    return hits
      .sort((a, b) => b.score - a.score || a.label - b.label)
      .slice(0, k)
      .map(clampScore);
  }

  /**
   * Below the crossover exact search is as fast or faster, so the graph is only walked when the
   * labels in play (all of them, or about as many as the filter accepts) are more than that. For
   * filters this matters most: hnswlib calls the JS filter for every node it visits, and a filter
   * that rejects most labels makes it visit many. See the filtered rows of vectorBench.ts.
   */
  private searchGraph(
    graph: HnswGraph,
    query: Float32Array,
    k: number,
    filter: ((label: number) => boolean) | undefined,
  ): VectorHit[] {
    const inPlay = filter ? graph.estimateAccepted(filter) : graph.size;
    if (graph.canSearchExactly && inPlay <= this.config.crossover) return graph.searchExact(query, k, filter);
    return graph.search(query, k, filter);
  }

  private workerBatch(graph: HnswGraph): number {
    return this.config.workerBatch ?? workerBatchFor(graph.size);
  }

  private *allLabels(): Generator<number> {
    if (this.graph) yield* this.graph.labels();
    yield* this.exact.labels();
  }

  private maybeStartBuild(): void {
    if (this.build || this.closed) return;
    const threshold = this.graph ? this.workerBatch(this.graph) : this.config.crossover;
    if (this.exact.size < Math.max(threshold, this.retryAt)) return;
    const build: Build = { dirty: new Set(), done: Promise.resolve(), cancel: () => Promise.resolve() };
    this.build = build;
    build.done = this.runBuild(build).then(
      () => this.finishBuild(build),
      (error: unknown) => this.failBuild(build, error),
    );
  }

  /** Snapshot, build in a worker, load the result and swap it in. */
  private async runBuild(build: Build): Promise<void> {
    const lib = await this.library();
    let snapshot: ReturnType<ExactStore['snapshot']> | undefined;
    const take = () => {
      snapshot = this.exact.snapshot();
      build.dirty.clear(); // what happened before this instant is in the snapshot and the base
    };
    let base: Uint8Array | null = null;
    if (this.graph) base = await this.graph.extract(take);
    else take();
    if (this.closed) return;
    const { labels, vectors } = snapshot!;
    const started = performance.now();
    this.config.logger.info('vector index: building HNSW graph in a worker', {
      adding: labels.length,
      base: this.graph?.size ?? 0,
    });
    const running = buildInWorker(
      this.config.worker,
      // The buffers are transferred; `labels` is still needed for the swap, so it goes as a copy.
      { dimension: this.dimension, params: this.config.params, base, labels: labels.slice(), vectors },
      this.config.logger,
    );
    build.cancel = running.cancel;
    const { bytes, millis } = await running.bytes;
    if (this.closed) return;
    const loading = performance.now();
    const next = await HnswGraph.fromBytes(
      lib,
      this.config.logger,
      this.dimension,
      this.config.params,
      bytes,
    );
    if (this.closed) {
      next.dispose();
      return;
    }
    // Synchronous from here: nothing can interleave with the swap.
    for (const label of build.dirty) next.remove(label);
    for (const label of labels) if (!build.dirty.has(label)) this.exact.remove(label);
    this.graph?.dispose();
    this.graph = next;
    this.config.logger.info('vector index: HNSW graph swapped in', {
      size: next.size,
      workerMillis: Math.round(millis),
      loadMillis: Math.round(performance.now() - loading),
      totalMillis: Math.round(performance.now() - started),
    });
  }

  private finishBuild(build: Build): void {
    if (this.build === build) this.build = null;
    if (this.closed || !this.graph) return;
    if (this.exact.size === 0) {
      this.exact.clear(); // give back the memory the exact phase used
    } else if (this.exact.size < this.workerBatch(this.graph)) {
      this.graph.upsert(this.exact.items());
      this.exact.clear();
    } else {
      this.maybeStartBuild();
    }
  }

  private failBuild(build: Build, error: unknown): void {
    if (this.build === build) this.build = null;
    if (this.closed) return;
    this.failedBuilds++;
    this.retryAt = this.exact.size * 2;
    this.config.logger.error('vector index: HNSW build failed; searching exactly meanwhile', {
      error: error instanceof Error ? error.message : String(error),
      exactSize: this.exact.size,
      retryAt: this.retryAt,
    });
  }

  private async library(): Promise<HnswLibrary> {
    this.lib ??= await this.config.loader(this.config.logger);
    return this.lib;
  }

  private assertOpen(): void {
    if (this.closed) throw new EngramError('CLOSED', 'the vector index has been closed');
  }
}

/** Runs synchronous work behind the async interface: a throw becomes a rejection, as callers expect. */
function settle<T>(work: () => T): Promise<T> {
  return new Promise((resolve) => resolve(work())); // the executor runs now; a throw rejects
}

/** Float rounding can put a vector's similarity to itself a hair above 1. */
function clampScore(hit: VectorHit): VectorHit {
  return hit.score > 1
    ? { label: hit.label, score: 1 }
    : hit.score < -1
      ? { label: hit.label, score: -1 }
      : hit;
}
