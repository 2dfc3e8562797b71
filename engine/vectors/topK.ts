import type { VectorHit } from './types';

/**
 * The k highest-scoring labels of a stream, kept in a binary min-heap on typed arrays: each
 * candidate costs one comparison with the weakest kept score, and only winners cost log k.
 */
export class TopK {
  private readonly scores: Float64Array;
  private readonly labels: Float64Array;
  private count = 0;

  constructor(readonly k: number) {
    this.scores = new Float64Array(k);
    this.labels = new Float64Array(k);
  }

  /** The score a candidate must beat to get in: -Infinity until k are kept. */
  get threshold(): number {
    return this.count < this.k ? Number.NEGATIVE_INFINITY : this.scores[0]!;
  }

  push(label: number, score: number): void {
    if (this.count < this.k) {
      this.siftUp(this.count++, label, score);
    } else if (this.k > 0 && score > this.scores[0]!) {
      this.siftDown(label, score);
    }
  }

  /** Best first; ties by smaller label so results are deterministic. */
  sorted(): VectorHit[] {
    const hits: VectorHit[] = [];
    for (let i = 0; i < this.count; i++) hits.push({ label: this.labels[i]!, score: this.scores[i]! });
    return hits.sort((a, b) => b.score - a.score || a.label - b.label);
  }

  private siftUp(index: number, label: number, score: number): void {
    let i = index;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.scores[parent]! <= score) break;
      this.scores[i] = this.scores[parent]!;
      this.labels[i] = this.labels[parent]!;
      i = parent;
    }
    this.scores[i] = score;
    this.labels[i] = label;
  }

  /** Replaces the root (the weakest kept) and restores the heap. */
  private siftDown(label: number, score: number): void {
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= this.count) break;
      const right = left + 1;
      const child = right < this.count && this.scores[right]! < this.scores[left]! ? right : left;
      if (this.scores[child]! >= score) break;
      this.scores[i] = this.scores[child]!;
      this.labels[i] = this.labels[child]!;
      i = child;
    }
    this.scores[i] = score;
    this.labels[i] = label;
  }
}
