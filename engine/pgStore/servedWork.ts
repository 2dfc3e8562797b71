import type { TimedRuns } from '../api/timedRuns';
import type { EmbeddingClaim } from '../retrieval/recallSources';

/** What the engine asks of the replicated engine that serves it (replicatedEngine.ts). */
export interface ServedOps extends TimedRuns {
  /** A write of the engine's own (background embedding) as a served call: journaled. */
  write(fn: () => void): Promise<void>;
  /** Documents to embed that no other process is embedding (StoreSearch.claimEmbedding). */
  claimEmbedding(model: string, docs: number[]): Promise<EmbeddingClaim>;
}

/**
 * The engine's own background work as served calls: the replica writes only inside one, so its
 * writes are journaled, their vectors reach recall's tables in the same transaction, and every
 * process sees them. Memories still without a vector are the queue (derived from the store, so
 * it survives a crash): any process drains it when its model loads and after its own writes,
 * claiming each batch so two processes never embed the same one. The engine exists after the
 * dispatcher that asks for these, so they are bound once it does; work asked before waits.
 */
export class ServedWork implements ServedOps {
  private bound: ServedOps | undefined;
  private readonly ready: Promise<void>;
  private resolve: () => void = () => undefined;

  constructor() {
    this.ready = new Promise<void>((resolve) => (this.resolve = resolve));
  }

  serve(ops: ServedOps): void {
    this.bound = ops;
    this.resolve();
  }

  async write(fn: () => void): Promise<void> {
    await this.ready;
    return this.bound!.write(fn);
  }

  async claimEmbedding(model: string, docs: number[]): Promise<EmbeddingClaim> {
    await this.ready;
    return this.bound!.claimEmbedding(model, docs);
  }

  async once(name: string, periodMs: number, job: () => Promise<void>): Promise<number> {
    await this.ready;
    return this.bound!.once(name, periodMs, job);
  }
}
