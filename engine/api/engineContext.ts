import type { CodeWorkspace } from '../code/codeWorkspace';
import type { MemoryStore } from '../memory/memoryStore';
import type { MemoryVectors } from '../vectors/memoryVectors';
import { EntityWeights } from '../retrieval/entityWeights';
import { MemoryGraphCache } from '../retrieval/memoryGraphCache';
import { codeChannel } from '../code/search/recallCodeChannel';
import type { CodeChannelHit, StoreSearch } from '../retrieval/recallSources';
import type { ConsolidationPlanner } from '../lifecycle/consolidationPlan';
import { HostLifecycleSettings } from '../lifecycle/hostLifecycleSettings';

/** Loads the embedding model and the vector index; undefined when the model is unavailable. */
export type VectorLoader = () => Promise<MemoryVectors | undefined>;

/**
 * The engine over one open database, as its methods see it: the store (the write rules) and what
 * reads or serves the memories, which the store does not hold: the workspace it scans, the dense
 * side once its model loaded, and the recall state. Made where the engine opens
 * (EngineDispatcher.open) and handed to every method; it satisfies retrieval's sources
 * (RecallSources, ContextSources) by shape, so retrieval needs no import of it.
 */
export class EngineContext {
  /** Entity weights accumulated by recalls (the memory bias of PageRank), written with each write. */
  readonly entityWeights = new EntityWeights();
  /** The entity-memory graph for the graph and PageRank channels, rebuilt when stale. */
  readonly graph = new MemoryGraphCache();
  /** Recall's code channel over this workspace's code index; absent without a workspace. */
  readonly searchCode: ((query: string, depth: number) => CodeChannelHit[]) | undefined;
  /** The lifecycle's settings (decay, archive rule, timed run), as stored in this database. */
  readonly lifecycleSettings: HostLifecycleSettings;
  private loaded: MemoryVectors | undefined;
  private loading: Promise<void> | undefined;

  /**
   * `code`: the workspace this host scans (codebase layer), unset for a database without one.
   * `vectorLoader`: how to load the embedding model, called on first use (`ensureVectors`), so
   * commands that never embed (list, get, export) do not pay for it. `sqlWasmPath`: sql.js's
   * wasm, for reading other programs' SQLite files (OpenCode's sessions); unset, they are not read.
   * `planConsolidation`: plans consolidation off this thread (hosts that checkpoint in a worker).
   * `storeSearch`: recall's lexical channel in the store of record (the team server's PostgreSQL).
   */
  constructor(
    readonly store: MemoryStore,
    readonly code: CodeWorkspace | undefined,
    private vectorLoader: VectorLoader | undefined,
    readonly sqlWasmPath?: string,
    readonly planConsolidation?: ConsolidationPlanner,
    readonly storeSearch?: StoreSearch,
  ) {
    store.addReadBuffer(this.entityWeights);
    this.lifecycleSettings = new HostLifecycleSettings(store);
    this.searchCode = code && ((query, depth) => codeChannel(store, code.options.root, query, depth));
  }

  /** The dense side (vectors, near-duplicates, surprise), once the host's embedding model loaded. */
  get vectors(): MemoryVectors | undefined {
    return this.loaded;
  }

  /** Loads the embedding model once; settles when it is ready or failed (then `vectors` stays unset). */
  ensureVectors(): Promise<void> {
    const loader = this.vectorLoader;
    if (!loader) return Promise.resolve();
    this.loading ??= loader().then((vectors) => {
      this.loaded = vectors;
      this.store.attachVectors(vectors);
    });
    return this.loading;
  }

  /**
   * Stops the workspace's scans, then waits for a model load in progress, stops background
   * embedding and saves the vector index. The store stays open (its owner flushes and closes it).
   */
  async close(): Promise<void> {
    await this.code?.close();
    this.vectorLoader = undefined;
    await this.loading;
    await this.loaded?.close();
    this.store.attachVectors(undefined);
    this.loaded = undefined;
  }
}
