import type { LedgerEvent } from '../memory/eventLedger';
import type { Viewer } from '../memory/visibility';
import type { SqlReader } from '../store/sqlAccess';
import type { DenseSearcher } from './denseSearch';
import type { EntityWeights } from './entityWeights';
import type { MemoryGraphCache } from './memoryGraphCache';
import type { CountedDatabase } from './storeCounts';

/**
 * What retrieval reads, as interfaces: the engine context (api/engineContext.ts) fits them by
 * shape, so retrieval depends neither on it nor on the store's class and its write rules.
 */

/** The store as recall uses it: reads, the clock, and read events (buffered until the next write). */
export interface MemoryReads {
  /** Caches of counts are kept per database until its next commit (storeCounts.ts). */
  readonly db: CountedDatabase;
  clock(): number;
  read<T>(fn: (reader: SqlReader) => T): T;
  noteRead(event: LedgerEvent): void;
}

/** A codebase memory the code channel ranked (engine/code/search/recallCodeChannel.ts), and why. */
export interface CodeChannelHit {
  memoryId: string;
  score: number;
  /** The file whose code matched, and its role (`implementation`, `test`, `docs`, ...). */
  path: string;
  role: string;
  /** The file's match per field (path, names, signatures, docs, body). */
  fields: Record<string, number>;
  /** The factor of its role (1 for implementation or a role the question asks for). */
  prior: number;
  /** The file's best-matching symbols, `Container.name:line`. */
  symbols: string[];
}

/**
 * Recall's lexical channel answered by the store of record itself (the team server's PostgreSQL,
 * engine/pgStore/pgLexicalSearch.ts) instead of the process's sql.js copy: BM25 top `limit` over
 * current memories with one of `statuses` that `viewer` may see, best first.
 */
export interface StoreSearch {
  lexical(
    query: string,
    limit: number,
    statuses: readonly string[],
    viewer: Viewer,
  ): Promise<Array<{ memoryId: string; score: number }>>;
  /**
   * The memories whose embedding of `model` is nearest `vector` (cosine), best first: the dense
   * channel, near-duplicates and surprise, where every process's writes are (pgVectorSearch.ts).
   * `filter` omitted: every current memory (a write's neighbours). Absent: the in-memory index.
   */
  dense?(
    model: string,
    vector: Float32Array,
    limit: number,
    filter?: { statuses: readonly string[]; viewer: Viewer },
  ): Promise<Array<{ memoryId: string; score: number }>>;
  /**
   * Runs a write of the engine's own (background embedding) as a served call of the store of
   * record, so it is journaled as a client's write is. Absent: the store writes it directly.
   */
  servedWrite?(fn: () => void): Promise<void>;
  /**
   * Claims memories (document numbers) to embed with `model`, where several processes share the
   * store: the ones no other process is embedding now, this process's until `release` (called
   * once their vectors are written, or given up), with this process's view of the store caught
   * up after the claim, so a vector another process wrote before is seen. Absent: no other
   * process embeds this store's memories.
   */
  claimEmbedding?(model: string, docs: number[]): Promise<EmbeddingClaim>;
}

/** Documents this process may embed, until it releases them (StoreSearch.claimEmbedding). */
export interface EmbeddingClaim {
  docs: number[];
  release(): Promise<void>;
}

/** Recall's sources: the store's reads and the recall state kept beside it. */
export interface RecallSources {
  readonly store: MemoryReads;
  /** The entity-memory graph of the graph and PageRank channels. */
  readonly graph: MemoryGraphCache;
  /** Weights recalls gave to entities (the memory bias of PageRank); recall adds to them. */
  readonly entityWeights: EntityWeights;
  /**
   * The code channel (engine/code/search/recallCodeChannel.ts): codebase memories of the files
   * whose code matches the query, for questions about code. Absent without a workspace.
   */
  readonly searchCode?: (query: string, depth: number) => CodeChannelHit[];
  /** Where the store answers the lexical channel itself; absent: the in-memory copy does. */
  readonly storeSearch?: StoreSearch;
}

/** A context block's sources: recall's, and the dense side, loaded on first use. */
export interface ContextSources extends RecallSources {
  readonly vectors: DenseSearcher | undefined;
  ensureVectors(): Promise<void>;
}
