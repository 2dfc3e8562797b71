import { EngramError } from '../errors';

/** Embeds one batch; must return one vector per text, in order. */
export type BatchRunner = (texts: string[]) => Promise<Float32Array[]>;

/** Counters for tests and benchmarks: how well concurrent calls were merged. */
export interface EmbeddingQueueStats {
  calls: number;
  batches: number;
  texts: number;
}

interface PendingCall {
  readonly texts: readonly string[];
  readonly vectors: Array<Float32Array | undefined>;
  /** Index of the first text not yet handed to a batch. */
  next: number;
  filled: number;
  settled: boolean;
  resolve(vectors: Float32Array[]): void;
  reject(error: unknown): void;
}

interface Slot {
  call: PendingCall;
  index: number;
}

/**
 * Runs embedding requests one batch at a time and merges concurrent `embed()` calls into shared
 * batches, because a model call costs less per text in a batch than one by one, and an HTTP request
 * per text would hit rate limits. A call larger than a batch is split across batches, sharing them
 * fairly with calls that arrive later; a failed batch rejects exactly the calls that had texts in it.
 */
export class EmbeddingQueue {
  private readonly waiting: PendingCall[] = [];
  private readonly unsettled = new Set<PendingCall>();
  private draining = false;
  private drainScheduled = false;
  private closedWith: EngramError | undefined;
  private readonly counters: EmbeddingQueueStats = { calls: 0, batches: 0, texts: 0 };

  constructor(
    private readonly runBatch: BatchRunner,
    readonly batchSize: number,
  ) {
    if (!Number.isInteger(batchSize) || batchSize < 1) {
      throw new EngramError(
        'INVALID_INPUT',
        `batchSize must be a positive integer, got ${String(batchSize)}`,
      );
    }
  }

  embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    if (texts.length === 0) return Promise.resolve([]);
    this.counters.calls++;
    return new Promise((resolve, reject) => {
      const call: PendingCall = {
        texts,
        vectors: new Array<Float32Array | undefined>(texts.length),
        next: 0,
        filled: 0,
        settled: false,
        resolve,
        reject,
      };
      this.waiting.push(call);
      this.unsettled.add(call);
      this.scheduleDrain();
    });
  }

  stats(): EmbeddingQueueStats {
    return { ...this.counters };
  }

  /** Rejects every unfinished call with `error`, and every later call too. */
  close(error: EngramError): void {
    this.closedWith ??= error;
    this.waiting.length = 0;
    for (const call of [...this.unsettled]) this.settle(call, error);
  }

  /** Rejects the calls waiting or in flight now; later calls are accepted (e.g. after a restart). */
  failPending(error: unknown): void {
    this.waiting.length = 0;
    for (const call of [...this.unsettled]) this.settle(call, error);
  }

  /**
   * Drains on the next turn of the event loop rather than at once, so that calls made together
   * (for example through Promise.all, each after its own `await init()`) share the first batch.
   */
  private scheduleDrain(): void {
    if (this.draining || this.drainScheduled) return;
    this.drainScheduled = true;
    setImmediate(() => {
      this.drainScheduled = false;
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.waiting.length > 0) {
        const slots = this.takeBatch();
        await this.runSlots(slots);
      }
    } finally {
      this.draining = false;
    }
  }

  /**
   * Fills a batch round-robin over the waiting calls, one text from each in turn: a one-text search
   * query that arrives behind a 10,000-text indexing call rides in the next batch instead of
   * waiting for the whole backlog. Each call's texts still go out in their own order.
   */
  private takeBatch(): Slot[] {
    const slots: Slot[] = [];
    while (slots.length < this.batchSize && this.waiting.length > 0) {
      for (const call of [...this.waiting]) {
        if (slots.length === this.batchSize) break;
        slots.push({ call, index: call.next++ });
        if (call.next === call.texts.length) this.waiting.splice(this.waiting.indexOf(call), 1);
      }
    }
    return slots;
  }

  private async runSlots(slots: Slot[]): Promise<void> {
    const texts = slots.map((slot) => slot.call.texts[slot.index]!);
    this.counters.batches++;
    this.counters.texts += texts.length;
    let vectors: Float32Array[];
    try {
      vectors = await this.runBatch(texts);
      if (vectors.length !== texts.length) {
        throw new EngramError(
          'UNAVAILABLE',
          `the model returned ${vectors.length} vectors for ${texts.length} texts`,
        );
      }
    } catch (error) {
      await this.isolateFailure(slots, error);
      return;
    }
    slots.forEach((slot, i) => {
      const { call } = slot;
      if (call.settled) return;
      call.vectors[slot.index] = vectors[i];
      call.filled++;
      if (call.filled === call.texts.length) {
        call.settled = true;
        this.unsettled.delete(call);
        call.resolve(call.vectors as Float32Array[]);
      }
    });
  }

  /**
   * A merged batch failed: retry each call's share alone, so that one text a service rejects (too
   * long, say) fails only the call it came from. A batch from a single call just fails it.
   */
  private async isolateFailure(slots: Slot[], error: unknown): Promise<void> {
    const calls = [...new Set(slots.map((slot) => slot.call))].filter((call) => !call.settled);
    if (calls.length <= 1) {
      for (const call of calls) this.fail(call, error);
      return;
    }
    for (const call of calls) {
      if (!call.settled) await this.runSlots(slots.filter((slot) => slot.call === call));
    }
  }

  private fail(call: PendingCall, error: unknown): void {
    const at = this.waiting.indexOf(call);
    if (at >= 0) this.waiting.splice(at, 1);
    this.settle(call, error);
  }

  private settle(call: PendingCall, error: unknown): void {
    if (call.settled) return;
    call.settled = true;
    this.unsettled.delete(call);
    call.reject(error);
  }
}
