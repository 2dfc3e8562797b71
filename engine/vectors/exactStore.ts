import { TopK } from './topK';
import type { VectorHit, VectorItem } from './types';

const INITIAL_SLOTS = 256;
/** Compact once this many removed slots are waiting and they are a quarter of the used ones. */
const COMPACT_MIN_DEAD = 1024;

/**
 * Vectors in one contiguous Float32Array (slot i at i * dimension), searched by brute-force dot
 * product. Removal leaves a tombstone that the scan skips; tombstones are compacted away in one
 * pass once they are a quarter of the slots, so removal stays O(1) and the scan stays dense.
 * Vectors must already be unit length: the dot product is then the cosine similarity.
 */
export class ExactStore {
  private data: Float32Array;
  private slotLabels: Float64Array;
  private alive: Uint8Array;
  private readonly slotOf = new Map<number, number>();
  private used = 0;
  private dead = 0;

  constructor(readonly dimension: number) {
    this.data = new Float32Array(INITIAL_SLOTS * dimension);
    this.slotLabels = new Float64Array(INITIAL_SLOTS);
    this.alive = new Uint8Array(INITIAL_SLOTS);
  }

  get size(): number {
    return this.slotOf.size;
  }

  has(label: number): boolean {
    return this.slotOf.has(label);
  }

  labels(): IterableIterator<number> {
    return this.slotOf.keys();
  }

  /** A view of the stored vector (valid until the next upsert, remove or clear). */
  vector(label: number): Float32Array | undefined {
    const slot = this.slotOf.get(label);
    return slot === undefined
      ? undefined
      : this.data.subarray(slot * this.dimension, (slot + 1) * this.dimension);
  }

  upsert(label: number, vector: Float32Array): void {
    let slot = this.slotOf.get(label);
    if (slot === undefined) {
      if (this.used === this.alive.length) this.grow();
      slot = this.used++;
      this.slotOf.set(label, slot);
      this.slotLabels[slot] = label;
      this.alive[slot] = 1;
    }
    this.data.set(vector, slot * this.dimension);
  }

  remove(label: number): boolean {
    const slot = this.slotOf.get(label);
    if (slot === undefined) return false;
    this.slotOf.delete(label);
    this.alive[slot] = 0;
    this.dead++;
    if (this.dead >= COMPACT_MIN_DEAD && this.dead * 4 >= this.used) this.compact();
    return true;
  }

  /** Empties the store and gives its memory back. */
  clear(): void {
    this.slotOf.clear();
    this.used = 0;
    this.dead = 0;
    this.resize(INITIAL_SLOTS);
  }

  /** Copies of every live (label, vector), in slot order, for a build elsewhere. */
  snapshot(): { labels: Float64Array; vectors: Float32Array } {
    const labels = new Float64Array(this.slotOf.size);
    const vectors = new Float32Array(this.slotOf.size * this.dimension);
    let i = 0;
    for (let slot = 0; slot < this.used; slot++) {
      if (!this.alive[slot]) continue;
      labels[i] = this.slotLabels[slot]!;
      vectors.set(this.data.subarray(slot * this.dimension, (slot + 1) * this.dimension), i * this.dimension);
      i++;
    }
    return { labels, vectors };
  }

  items(): VectorItem[] {
    return [...this.slotOf.keys()].map((label) => ({ label, vector: this.vector(label)!.slice() }));
  }

  /** Up to `count` labels spread evenly over the store (for estimating a filter's selectivity). */
  sampleLabels(count: number): number[] {
    const wanted = Math.min(count, this.slotOf.size);
    const step = this.used / Math.max(1, wanted);
    const sample: number[] = [];
    for (let i = 0; i < wanted; i++) {
      let slot = Math.floor(i * step);
      while (slot < this.used && !this.alive[slot]) slot++;
      if (slot < this.used) sample.push(this.slotLabels[slot]!);
    }
    return sample;
  }

  /** The k highest dot products with `query` (unit length), best first. */
  search(query: Float32Array, k: number, filter?: (label: number) => boolean): VectorHit[] {
    const top = new TopK(Math.max(0, Math.min(k, this.slotOf.size)));
    if (top.k === 0) return [];
    const { data, dimension, alive, slotLabels, used } = this;
    const tail = dimension - (dimension % 4);
    let threshold = top.threshold;
    for (let slot = 0, base = 0; slot < used; slot++, base += dimension) {
      if (alive[slot] === 0) continue;
      if (filter !== undefined && !filter(slotLabels[slot]!)) continue;
      // Four accumulators let the CPU overlap the multiply-adds.
      let a0 = 0;
      let a1 = 0;
      let a2 = 0;
      let a3 = 0;
      let i = 0;
      for (; i < tail; i += 4) {
        a0 += query[i]! * data[base + i]!;
        a1 += query[i + 1]! * data[base + i + 1]!;
        a2 += query[i + 2]! * data[base + i + 2]!;
        a3 += query[i + 3]! * data[base + i + 3]!;
      }
      for (; i < dimension; i++) a0 += query[i]! * data[base + i]!;
      const score = a0 + a1 + a2 + a3;
      if (score > threshold) {
        top.push(slotLabels[slot]!, score);
        threshold = top.threshold;
      }
    }
    return top.sorted();
  }

  private grow(): void {
    this.resize(Math.max(INITIAL_SLOTS, this.alive.length * 2));
  }

  private resize(slots: number): void {
    const data = new Float32Array(slots * this.dimension);
    data.set(this.data.subarray(0, this.used * this.dimension));
    const slotLabels = new Float64Array(slots);
    slotLabels.set(this.slotLabels.subarray(0, this.used));
    const alive = new Uint8Array(slots);
    alive.set(this.alive.subarray(0, this.used));
    this.data = data;
    this.slotLabels = slotLabels;
    this.alive = alive;
  }

  /** Moves live slots down over the tombstones, keeping their order. */
  private compact(): void {
    const { dimension } = this;
    let write = 0;
    for (let read = 0; read < this.used; read++) {
      if (!this.alive[read]) continue;
      if (write !== read) {
        this.data.copyWithin(write * dimension, read * dimension, (read + 1) * dimension);
        const label = this.slotLabels[read]!;
        this.slotLabels[write] = label;
        this.alive[write] = 1;
        this.slotOf.set(label, write);
      }
      write++;
    }
    this.alive.fill(0, write, this.used);
    this.used = write;
    this.dead = 0;
  }
}
