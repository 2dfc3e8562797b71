import type { SqlWriter } from '../store/sqlAccess';

/**
 * What takes part in the store's write transactions without the store knowing its class: the
 * store applies its write rules (flush buffered reads first, stage vectors until the commit), and
 * the engine context (api/engineContext.ts) attaches the parts it owns. Interfaces only, so the
 * memory layer imports none of its consumers.
 */

/** Events buffered by reads (recall accesses, entity weights) and written with the next write. */
export interface ReadBuffer {
  flush(tx: SqlWriter): void;
}

/** The dense side as the write rules see it: vectors stored in a transaction enter its index on commit. */
export interface VectorStaging {
  /** Stores a vector in the caller's write transaction (see MemoryVectors.stage). */
  stage(tx: SqlWriter, memoryId: string, contentHash: string, vector: Float32Array, doc?: number): void;
  committed(): void;
  rolledBack(): void;
  /** Embeds, in the background, memories whose text was stored without a vector. */
  sync(): Promise<void>;
}
