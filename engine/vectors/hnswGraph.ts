import type { Logger } from '../host';
import { EngramError } from '../errors';
import { ExactStore } from './exactStore';
import { readHnswElements } from './hnswBytes';
import { HnswFileSystem } from './hnswFiles';
import { nativeErrorMessage } from './hnswlib';
import type { HnswLibrary, NativeHnswIndex } from './hnswlib';
import { FILTER_EF_FACTOR } from './hnswParams';
import type { HnswParams } from './hnswParams';
import type { VectorHit } from './types';

const MIN_CAPACITY = 1024;
const GROWTH = 1.5;
/** Filter probes used to estimate how many labels a filter accepts. */
const FILTER_SAMPLE = 64;

export interface GraphOptions {
  /**
   * Keep a JS copy of the vectors so filtered searches that accept few labels can be answered
   * exactly (hnswlib calls a JS filter per visited node, which is slow). The worker needs none.
   * @default true
   */
  mirror?: boolean;
  /** Room to reserve for vectors not added yet. @default 1024 */
  headroom?: number;
}

/**
 * One hnswlib HierarchicalNSW graph in inner-product space over unit vectors, with the label
 * bookkeeping the native index does not expose cheaply. Synchronous: it runs on whichever thread
 * owns it (the caller's thread for searches and small adds, a worker for big builds).
 *
 * Deletion uses hnswlib's mark-and-reuse: `remove` marks the node deleted (it stays in the graph
 * as a waypoint) and a later new label takes over a marked slot, so churn does not grow memory.
 * That reuse forgets the old label of the slot without saying which, hence `tombstones` is an
 * upper bound of the deleted labels still known to the index, checked when a label comes back.
 */
export class HnswGraph {
  private readonly live = new Set<number>();
  private tombstones = new Set<number>();
  /** Deleted slots available for reuse. */
  private vacant = 0;
  private slots: number;
  private capacity: number;
  private readonly mirror: ExactStore | null;

  private constructor(
    private readonly lib: HnswLibrary,
    private readonly logger: Logger,
    private readonly native: NativeHnswIndex,
    readonly dimension: number,
    private readonly params: HnswParams,
    mirror: boolean,
  ) {
    this.slots = native.getCurrentCount();
    this.capacity = native.getMaxElements();
    this.mirror = mirror ? new ExactStore(dimension) : null;
  }

  static create(
    lib: HnswLibrary,
    logger: Logger,
    dimension: number,
    params: HnswParams,
    { mirror = true, headroom = MIN_CAPACITY }: GraphOptions = {},
  ): HnswGraph {
    const native = new lib.HierarchicalNSW('ip', dimension, '');
    native.initIndex(Math.max(MIN_CAPACITY, headroom), params.m, params.efConstruction, params.seed);
    return new HnswGraph(lib, logger, native, dimension, params, mirror);
  }

  /** A graph from `extract` bytes. */
  static async fromBytes(
    lib: HnswLibrary,
    logger: Logger,
    dimension: number,
    params: HnswParams,
    bytes: Uint8Array,
    { mirror = true, headroom = MIN_CAPACITY }: GraphOptions = {},
  ): Promise<HnswGraph> {
    const elements = readHnswElements(bytes, dimension); // checks the layout before hnswlib sees it
    const native = new lib.HierarchicalNSW('ip', dimension, '');
    try {
      // readIndex keeps the saved capacity when it is larger than the one asked for.
      await HnswFileSystem.of(lib, logger).restore(native, bytes, elements.count + headroom);
    } catch (error) {
      native.delete();
      throw new EngramError(
        'CORRUPT',
        `HNSW index bytes could not be read: ${nativeErrorMessage(lib, error)}`,
      );
    }
    const graph = new HnswGraph(lib, logger, native, dimension, params, mirror);
    for (let slot = 0; slot < elements.count; slot++) {
      const label = elements.labels[slot]!;
      if (elements.deleted[slot]) {
        graph.tombstones.add(label);
        graph.vacant++;
      } else {
        graph.live.add(label);
        graph.mirror?.upsert(label, elements.vector(slot));
      }
    }
    return graph;
  }

  get size(): number {
    return this.live.size;
  }

  has(label: number): boolean {
    return this.live.has(label);
  }

  labels(): IterableIterator<number> {
    return this.live.values();
  }

  /** Inserts or replaces; vectors must be unit length and `dimension` long. */
  upsert(items: ReadonlyArray<{ label: number; vector: Float32Array }>): void {
    const fresh = items.filter((item) => !this.live.has(item.label)).length;
    this.ensureCapacity(fresh);
    for (const { label, vector } of items) {
      this.upsertOne(label, vector);
      this.mirror?.upsert(label, vector);
    }
  }

  remove(label: number): boolean {
    if (!this.live.delete(label)) return false;
    this.native.markDelete(label);
    this.mirror?.remove(label);
    this.tombstones.add(label);
    this.vacant++;
    if (this.tombstones.size > this.vacant + MIN_CAPACITY)
      this.tombstones = new Set(this.native.getDeletedLabels());
    return true;
  }

  /** Best first. With a filter, only accepted labels; the candidate list grows to keep recall. */
  search(query: Float32Array, k: number, filter?: (label: number) => boolean): VectorHit[] {
    const wanted = Math.min(k, this.live.size);
    if (wanted <= 0) return [];
    const ef = Math.max(this.params.efSearch, filter ? wanted * FILTER_EF_FACTOR : wanted);
    this.native.setEfSearch(ef);
    // A JS exception thrown through the wasm frames would skip C++ cleanup: catch it here and
    // rethrow after the native call has returned.
    let filterError: Error | undefined;
    const guarded =
      filter &&
      ((label: number) => {
        try {
          return filter(label);
        } catch (error) {
          filterError ??= error instanceof Error ? error : new Error(String(error));
          return false;
        }
      });
    const { distances, neighbors } = this.native.searchKnn(query, wanted, guarded);
    if (filterError !== undefined) throw filterError;
    const hits = neighbors.map((label, i) => ({ label, score: 1 - (distances[i] ?? 1) }));
    return hits.sort((a, b) => b.score - a.score || a.label - b.label);
  }

  /** Whether `searchExact` is available (the graph keeps a mirror of its vectors). */
  get canSearchExactly(): boolean {
    return this.mirror !== null;
  }

  /** Brute force over the mirror: exact, and fast when the filter leaves few labels. */
  searchExact(query: Float32Array, k: number, filter?: (label: number) => boolean): VectorHit[] {
    if (!this.mirror) throw new Error('this graph keeps no mirror of its vectors');
    return this.mirror.search(query, k, filter);
  }

  /** About how many live labels `filter` accepts, from a spread-out sample. */
  estimateAccepted(filter: (label: number) => boolean): number {
    const sample = this.mirror?.sampleLabels(FILTER_SAMPLE) ?? [];
    if (sample.length === 0) return this.live.size;
    const accepted = sample.filter((label) => filter(label)).length;
    return Math.round((accepted / sample.length) * this.live.size);
  }

  /** The serialized graph; `onWritten` runs synchronously when the bytes match the graph. */
  extract(onWritten?: () => void): Promise<Uint8Array> {
    return HnswFileSystem.of(this.lib, this.logger).extract(this.native, onWritten);
  }

  /** Frees the native graph. */
  dispose(): void {
    this.native.delete();
    this.live.clear();
    this.tombstones.clear();
    this.mirror?.clear();
  }

  private upsertOne(label: number, vector: Float32Array): void {
    if (this.live.has(label)) {
      this.native.addPoint(vector, label, false); // updates the point in place
      return;
    }
    if (this.tombstones.delete(label) && this.tryUndelete(label)) {
      this.vacant--;
      this.native.addPoint(vector, label, false);
    } else {
      // Takes over a deleted slot when there is one (hnswlib's replace_deleted).
      this.native.addPoint(vector, label, true);
      if (this.vacant > 0) this.vacant--;
      else this.slots++;
    }
    this.live.add(label);
  }

  /** False when the label's slot has already been reused by another label. */
  private tryUndelete(label: number): boolean {
    try {
      this.native.unmarkDelete(label);
      return true;
    } catch {
      return false;
    }
  }

  private ensureCapacity(fresh: number): void {
    const needed = this.slots + Math.max(0, fresh - this.vacant);
    if (needed <= this.capacity) return;
    const next = Math.max(needed, Math.ceil(this.capacity * GROWTH), MIN_CAPACITY);
    this.native.resizeIndex(next);
    this.capacity = next;
  }
}
