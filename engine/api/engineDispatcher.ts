import { useLexicalCopy } from '../lexical/liveLexicalIndex';
import { warmQueryAnalysis } from '../retrieval/queryAnalysis';
import { runLifecyclePass } from '../lifecycle/lifecyclePass';
import { pruneAccessLedger } from '../lifecycle/ledgerPruning';
import { lifecycleSettingsConfigured } from '../lifecycle/lifecycleSettings';
import { runConsolidation } from '../lifecycle/consolidationRun';
import { workerPlanner } from '../lifecycle/consolidationPlan';
import type { LexicalCopyMode } from '../lexical/liveLexicalIndex';
import { EngramError, invalidInput } from '../errors';
import type { Clock, Logger } from '../host';
import { DEFAULT_LIMITS } from '../memory/limits';
import type { MemoryLimits } from '../memory/limits';
import { MemoryStore } from '../memory/memoryStore';
import { MemoryVectors } from '../vectors/memoryVectors';
import { CodeWorkspace } from '../code/codeWorkspace';
import { EngineContext } from './engineContext';
import type { CodeWorkspaceOptions } from '../code/codeWorkspace';
import type { EmbeddingProgress } from '../vectors/memoryVectors';
import type { EmbeddingProvider } from '../embedding/types';
import type { StoreSearch } from '../retrieval/recallSources';
import { MIGRATIONS } from '../memory/schema';
import { indexTeamFiles } from '../team/indexOnOpen';
import { registerBm25 } from '../lexical/bm25';
import { DurableDatabase } from '../store/durableDatabase';
import type { SnapshotPolicy } from '../store/durableDatabase';
import type { EngineDatabase } from '../store/engineDatabase';
import type { Database } from 'sql.js';
import { loadSqlJs } from '../store/sqlite';
import { defaultWorkerScripts } from '../process/workerScripts';
import type { WorkerScripts } from '../process/workerScripts';
import type { WorkerScript } from '../process/workerKit';
import type { DispatchMeta } from '../process/sharedEngine';
import { isMethodName, METHODS } from './methods';
import type { MethodSpec } from './defineMethod';
import { asParams } from './params';
import { parseParams } from './parseParams';
import { activityOf, reportActivity } from './engineActivity';
import type { TimedRuns } from './timedRuns';
import type { ActivityListener, EngineActivity } from './engineActivity';

export interface HostOptions {
  /** The database file, or where the store is (for messages) when openDatabase is given. */
  dbPath: string;
  /**
   * Opens the store instead of the durable file at dbPath (a PostgreSQL replica,
   * engine/pgStore), with the migrations run; `configure` registers the engine's SQL functions.
   */
  openDatabase?: (configure: (db: Database) => void) => Promise<EngineDatabase>;
  sqlWasmPath: string;
  /** The worker scripts (scan, vector build, checkpoint; the embedding one is the provider's). @default defaultWorkerScripts() */
  workers?: WorkerScripts;
  logger: Logger;
  clock: Clock;
  limits?: Partial<MemoryLimits>;
  snapshot?: Partial<SnapshotPolicy>;
  /** SQLite's page cache (KiB). @default DEFAULT_PAGE_CACHE_KIB (store/snapshotFile.ts) */
  pageCacheKib?: number;
  /**
   * The embedding model for the dense channel, near-duplicates and surprise; loaded in the
   * background after open. Omitted or null: lexical and graph retrieval only.
   */
  embedding?: EmbeddingProvider | null;
  /** The workspace this host scans for the codebase layer; omitted: code methods are unavailable. */
  code?: CodeWorkspaceOptions;
  /** Load the model right after open (long-lived hosts) instead of on first use. @default false */
  warmEmbedding?: boolean;
  /**
   * The in-memory lexical index: built in the background from open (`background`), or never, for a
   * process that answers one call and exits (`never`: recall searches SQLite's FTS). @default 'background'
   */
  lexicalCopy?: LexicalCopyMode;
  /** Recall's lexical channel answered by the store of record (a PostgreSQL team store): then no in-memory lexical copy is built. */
  storeSearch?: StoreSearch;
  /**
   * Runs the lifecycle (promotion, archive of what faded: engine/lifecycle) this often, off any
   * caller's path (long-lived hosts); the first run comes a tenth of the period after open.
   * Omitted: only when asked (the `lifecycle` method).
   */
  lifecycleEveryMs?: number;
  /**
   * With lifecycleEveryMs, where several processes serve the store (a PostgreSQL team store): its
   * runs happen once per period across them, through the store's served path. Omitted: this
   * process's timer alone decides.
   */
  timedRuns?: TimedRuns;
  /**
   * With lifecycleEveryMs: read and recall events older than this are folded into daily aggregates
   * on each run (engine/lifecycle/ledgerPruning.ts). @default DEFAULT_ACCESS_RETENTION_DAYS (90)
   */
  accessRetentionDays?: number;
  /**
   * With lifecycleEveryMs: each run also consolidates, in slices off the thread's long stretches
   * (engine/lifecycle/consolidationRun.ts). @default false: consolidation's summaries still cost
   * recall (docs/benchmarks.md, Lifecycle), so hosts consolidate only when asked (`consolidate`).
   */
  consolidateOnSchedule?: boolean;
  /**
   * Write snapshots in a worker thread instead of exporting the database on this one (long-lived
   * hosts whose thread must stay responsive: the extension host, the MCP bridge); past the same
   * size, consolidation is planned in a worker too (consolidationPlan.ts). @default false
   */
  checkpointInWorker?: boolean;
  /** With checkpointInWorker: smaller databases are exported on this thread. @default 4 MiB (CheckpointWorkerOptions) */
  checkpointWorkerMinBytes?: number;
  /** Background embedding progress (after a model change, imports, bulk writes). */
  onEmbeddingProgress?: (progress: EmbeddingProgress) => void;
  /** After each recall and write, from any client of this host (live views: the Graph panel). */
  onActivity?: (activity: EngineActivity) => void;
}

/** Writes journaled while others wait: one fdatasync for all of them (see applyOnce). */
const GROUP_COMMIT = { durable: 'group' } as const;
/** A write alone: synced on this thread (an fdatasync handed to a worker thread costs more CPU). */
const ALONE = { durable: true } as const;

/** How long results of applied requests are kept for re-sent duplicates. */
const APPLIED_REQUEST_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * The engine over one database: dispatches API methods (parameters parsed once) to its store. Write methods
 * run exactly once per request id: the id and the result are stored in the same transaction as the
 * write, so a request re-sent after a failover gets the first answer instead of a second write.
 * A call of the host's own process (DispatchMeta.local) cannot be re-sent: only the check is made.
 */
export class EngineDispatcher {
  private readonly activityListeners = new Set<ActivityListener>();

  /** The store's write rules; what reads or serves the memories is on `engine`. */
  readonly store: MemoryStore;

  private constructor(
    readonly engine: EngineContext,
    private readonly logger: Logger,
    onActivity?: (activity: EngineActivity) => void,
  ) {
    this.store = engine.store;
    if (onActivity) this.activityListeners.add((activity) => onActivity(activity));
  }

  /**
   * Hears every recall and write this host serves, whoever asked (the process hosting it sends
   * them on to its clients). Returns the unsubscribe function.
   */
  onActivity(listener: ActivityListener): () => void {
    this.activityListeners.add(listener);
    return () => this.activityListeners.delete(listener);
  }

  static async open(options: HostOptions): Promise<EngineDispatcher> {
    const workers = options.workers ?? defaultWorkerScripts();
    const db = options.openDatabase
      ? await options.openDatabase(registerBm25)
      : await openDurable(options, workers);
    const store = new MemoryStore(
      db,
      options.clock,
      { ...DEFAULT_LIMITS, ...options.limits },
      // The durable file store: a replica's second transaction would be a second round trip.
      { deferDerivedRows: !options.openDatabase },
    );
    // Where the store of record answers recall's lexical channel, nothing reads the in-memory copy:
    // it is not built (at 100,000 memories it cost a team server ~7 s of CPU after each open).
    const copy = options.storeSearch ? 'never' : (options.lexicalCopy ?? 'background');
    useLexicalCopy(db, copy, (fn) => store.read(fn));
    store.sweepExpired();
    // Only when something expired: opening a store to read it must not append to the journal.
    const expiredBefore = store.clock() - APPLIED_REQUEST_TTL_MS;
    if (store.read((r) => r.value('SELECT 1 FROM applied_requests WHERE at < ? LIMIT 1', [expiredBefore])))
      store.write((tx) => tx.run('DELETE FROM applied_requests WHERE at < ?', [expiredBefore]));
    const provider = options.embedding;
    const engine = new EngineContext(
      store,
      options.code ? new CodeWorkspace({ workerScript: workers.scan, ...options.code }) : undefined,
      provider ? () => loadVectors(store, provider, workers.vectors, options) : undefined,
      options.sqlWasmPath,
      options.checkpointInWorker
        ? workerPlanner(db, workers.consolidation, options.sqlWasmPath, options.logger)
        : undefined,
      options.storeSearch,
    );
    if (options.code) indexTeamFiles(store, options.code.root, options.logger);
    if (provider && options.warmEmbedding) void engine.ensureVectors();
    // With the lexical copy, the entity graph (PageRank) is built between other work from open, and
    // the query analysis runs once: the first recall paid for both (docs/benchmarks.md, Retrieval).
    if ((options.lexicalCopy ?? 'background') === 'background') {
      engine.graph.buildInBackground(db, (fn) => store.read(fn), options.clock);
      setImmediate(warmQueryAnalysis);
    }
    const dispatcher = new EngineDispatcher(engine, options.logger, options.onActivity);
    if (options.lifecycleEveryMs !== undefined)
      dispatcher.scheduleLifecycle(options.lifecycleEveryMs, {
        accessRetentionDays: options.accessRetentionDays,
        consolidate: options.consolidateOnSchedule ?? false,
        timedRuns: options.timedRuns,
      });
    return dispatcher;
  }

  async dispatch(method: string, rawParams: unknown, meta: DispatchMeta): Promise<unknown> {
    try {
      const result = await this.execute(method, rawParams, meta);
      reportActivity(
        this.activityListeners,
        () =>
          isMethodName(method)
            ? activityOf(
                this.store,
                method,
                asParams(rawParams, method),
                result,
                METHODS[method].write,
                meta.client,
              )
            : undefined,
        meta.requestId,
        this.logger,
      );
      return result;
    } catch (error) {
      if (!EngramError.is(error))
        this.logger.error(`${method} failed`, { error: String(error), client: meta.client });
      throw error instanceof Error ? error : new Error(String(error));
    }
  }

  private async execute(method: string, rawParams: unknown, meta: DispatchMeta): Promise<unknown> {
    if (!isMethodName(method)) throw invalidInput(`unknown method "${method}"`);
    const spec: MethodSpec = METHODS[method];
    const params = parseParams(spec, rawParams, method);
    const result: unknown = spec.write
      ? await this.countedWrite(() => this.applyOnce(method, spec, params, meta))
      : await spec.run(this.engine, params, undefined);
    // Acknowledged only once on disk: a write's own, and for a read, any write it may have seen
    // whose group fdatasync is still running (a power cut would lose that write).
    await this.store.db.whenDurable?.();
    if (spec.after) {
      try {
        await spec.after(this.engine, params, result);
      } catch (error) {
        this.logger.warn(`${method}: the work after the write failed`, { error: String(error) });
      }
    }
    return result;
  }

  /** Write calls between their start and their acknowledgement (group commit when > 1). */
  private writesInFlight = 0;

  private async countedWrite(write: () => Promise<unknown>): Promise<unknown> {
    this.writesInFlight++;
    try {
      const result = await write();
      await this.store.db.whenDurable?.();
      return result;
    } finally {
      this.writesInFlight--;
    }
  }

  /** A write method's transaction, exactly once per request id. */
  private async applyOnce(
    method: string,
    spec: MethodSpec,
    params: unknown,
    meta: DispatchMeta,
  ): Promise<unknown> {
    const { requestId } = meta;
    // Async preparation (recall, embeddings) runs before the synchronous transaction.
    const prepared = spec.prepare ? await spec.prepare(this.engine, params) : undefined;
    return this.store.write(
      (tx, now) => {
        const prior = tx.value<string>('SELECT result FROM applied_requests WHERE request_id = ?', [
          requestId,
        ]);
        const record = spec.resultRecord;
        if (prior !== undefined) {
          const kept = JSON.parse(prior) as unknown;
          return record ? record.rebuild(tx, kept) : kept;
        }
        const result = spec.run(this.engine, params, prepared);
        // Nothing can re-send a call of the host's own process (DispatchMeta.local): keeping its
        // result doubled the compat knowledge graph's database (a copy of every created entity).
        if (meta.local) return result;
        tx.run('INSERT INTO applied_requests (request_id, method, result, at) VALUES (?, ?, ?, ?)', [
          requestId,
          method,
          JSON.stringify((record ? record.record(result) : result) ?? null),
          now,
        ]);
        return result;
        // With other writes in flight, journaled without waiting for the disk: countedWrite waits
        // for the fdatasync these writers share (group commit), and derived rows are written meanwhile.
      },
      this.writesInFlight > 1 ? GROUP_COMMIT : ALONE,
    );
  }

  private lifecycleTimer: NodeJS.Timeout | undefined;
  private lifecycleRun: Promise<void> | undefined;
  private readonly lifecycleStop = new AbortController();

  /**
   * See HostOptions.lifecycleEveryMs. Never keeps the process alive; a failed run is logged.
   * Consolidation (consolidateOnSchedule) runs in slices: the next run is timed from its end.
   * Once the database's lifecycle settings were configured (`configureLifecycle`), they decide
   * the period and whether runs consolidate; a change reschedules the next run at once.
   */
  private scheduleLifecycle(
    everyMs: number,
    options: { accessRetentionDays?: number; consolidate: boolean; timedRuns?: TimedRuns },
  ): void {
    const settings = this.engine.lifecycleSettings;
    let usesSettings = this.store.read((r) => lifecycleSettingsConfigured(r));
    const period = () => (usesSettings ? settings.get().intervalMinutes * 60_000 : everyMs);
    const pass = async (): Promise<void> => {
      const result = runLifecyclePass(this.store, { dryRun: false, rules: settings.rules() });
      const pruned = pruneAccessLedger(this.store, options.accessRetentionDays);
      const consolidate = usesSettings ? settings.get().consolidateInBackground : options.consolidate;
      const consolidated = consolidate
        ? await runConsolidation(this.store, {
            dryRun: false,
            plan: this.engine.planConsolidation,
            signal: this.lifecycleStop.signal,
          })
        : undefined;
      const created = consolidated?.created.length ?? 0;
      if (result.promoted.length + result.archived.length + pruned.folded + created > 0)
        this.logger.info('lifecycle run', {
          promoted: result.promoted.length,
          archived: result.archived.length,
          foldedAccessEvents: pruned.folded,
          consolidated: created,
        });
    };
    const run = async (): Promise<void> => {
      let next = period();
      try {
        if (options.timedRuns) next = await options.timedRuns.once('lifecycle', period(), pass);
        else await pass();
      } catch (error) {
        this.logger.warn('lifecycle run failed', { error: String(error) });
      }
      this.lifecycleRun = undefined;
      if (!this.lifecycleStop.signal.aborted) this.lifecycleTimer = setTimeout(start, next).unref();
    };
    const start = () => {
      this.lifecycleRun = run();
    };
    settings.onChange(() => {
      usesSettings = true;
      // A run in progress times the next one itself, from the new period.
      if (this.lifecycleRun || this.lifecycleStop.signal.aborted) return;
      clearTimeout(this.lifecycleTimer);
      this.lifecycleTimer = setTimeout(start, period()).unref();
    });
    this.lifecycleTimer = setTimeout(start, period() / 10).unref();
  }

  async close(): Promise<void> {
    // A run in progress stops at its next slice: what it applied is committed, the rest is the next run's.
    this.lifecycleStop.abort();
    clearTimeout(this.lifecycleTimer);
    await this.lifecycleRun;
    await this.engine.close();
    try {
      this.store.flushReads();
    } catch (error) {
      this.logger.warn('could not flush read events on close', { error: String(error) });
    }
    await this.store.db.close();
  }
}

/** The durable file store at options.dbPath. */
async function openDurable(options: HostOptions, workers: WorkerScripts): Promise<DurableDatabase> {
  return DurableDatabase.open({
    path: options.dbPath,
    sql: await loadSqlJs(options.sqlWasmPath),
    logger: options.logger,
    clock: options.clock,
    migrations: MIGRATIONS,
    snapshot: options.snapshot,
    pageCacheKib: options.pageCacheKib,
    configure: registerBm25,
    ...(options.checkpointInWorker
      ? {
          checkpointWorker: {
            sqlWasmPath: options.sqlWasmPath,
            script: workers.checkpoint,
            minDatabaseBytes: options.checkpointWorkerMinBytes,
          },
        }
      : {}),
  });
}

/** Loads the model and the vector index; writes and recalls that need them wait for this. */
async function loadVectors(
  store: MemoryStore,
  provider: EmbeddingProvider,
  worker: WorkerScript,
  options: HostOptions,
): Promise<MemoryVectors | undefined> {
  try {
    const vectors = await MemoryVectors.open(store, {
      provider,
      worker,
      logger: options.logger,
      indexFile: `${options.dbPath}.vectors`,
      onProgress: options.onEmbeddingProgress,
      ...(options.storeSearch ? { store: options.storeSearch } : {}),
    });
    // Memories written while the model loaded (or by an older version) get vectors in the background.
    setImmediate(() => void vectors.sync());
    return vectors;
  } catch (error) {
    options.logger.warn(
      `embedding model ${provider.id} unavailable, recall runs without vectors: ${String(error)}`,
    );
    await provider.dispose().catch(() => undefined);
    return undefined;
  }
}
