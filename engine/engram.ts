import { parseActivity } from './api/engineActivity';
import type { EngineActivity } from './api/engineActivity';
import { EngineDispatcher } from './api/engineDispatcher';
import { createEmbeddingProvider } from './embedding/createEmbeddingProvider';
import type { EmbeddingConfig } from './embedding/types';
import type { HostOptions } from './api/engineDispatcher';
import type { MethodName, MethodParams, MethodResult } from './api/methods';
import { silentLogger, systemClock } from './host';
import type { Clock, Logger } from './host';
import { prepareDatabaseDirectory } from './paths';
import { openShared } from './process/sharedEngine';
import { checkWorkerScripts, defaultWorkerScripts } from './process/workerScripts';
import type { WorkerScripts } from './process/workerScripts';
import type { EngineRole, SharedEngine } from './process/sharedEngine';

export interface OpenEngramOptions {
  /** The database file (see paths.ts for how entry points choose it). */
  dbPath: string;
  /**
   * A PostgreSQL URL: the store of record is that database, this process one of its replicas
   * (engine/pgStore; the team server's `--store`). dbPath is then not opened.
   */
  store?: string;
  /** With store: the PostgreSQL schema its tables live in (a team's store). @default the connection's */
  storeSchema?: string;
  /** Where the host keeps sql.js's `sql-wasm.wasm`. */
  sqlWasmPath: string;
  /**
   * Where the host keeps the worker scripts (scan, embedding, vector build, checkpoint), located
   * like the wasm: `workerScriptsIn(dist)` in a built host, `sourceWorkerScripts()` under tsx.
   * Checked at open. @default defaultWorkerScripts() (process/workerScripts.ts)
   */
  workers?: WorkerScripts;
  /** Who is calling, for logs and the host's view of its clients. @default 'engram' */
  clientName?: string;
  logger?: Logger;
  clock?: Clock;
  limits?: HostOptions['limits'];
  snapshot?: HostOptions['snapshot'];
  /** SQLite's page cache when this process hosts the database (KiB). */
  pageCacheKib?: HostOptions['pageCacheKib'];
  /** How long to wait for (or replace) another process hosting the database. @default 15000 */
  connectTimeoutMs?: number;
  /** The embedding model used when this process hosts the database. @default null (none) */
  embedding?: EmbeddingConfig | null;
  /** The workspace to scan when this process hosts the database (the codebase layer). */
  code?: HostOptions['code'];
  /** Load the model at open rather than on first use (long-lived processes). */
  warmEmbedding?: boolean;
  /** The in-memory lexical index when this process hosts the database (see HostOptions). */
  lexicalCopy?: HostOptions['lexicalCopy'];
  /** The lifecycle's period when this process hosts the database (see HostOptions). */
  lifecycleEveryMs?: HostOptions['lifecycleEveryMs'];
  /** With lifecycleEveryMs: each run consolidates too (see HostOptions). */
  consolidateOnSchedule?: HostOptions['consolidateOnSchedule'];
  /** Snapshots in a worker thread when this process hosts the database (long-lived processes). */
  checkpointInWorker?: boolean;
  /** With checkpointInWorker: smaller databases are exported on this process's thread. */
  checkpointWorkerMinBytes?: HostOptions['checkpointWorkerMinBytes'];
  onEmbeddingProgress?: HostOptions['onEmbeddingProgress'];
  /**
   * Every recall and write on the database, whichever process made it and whichever hosts it
   * (live views), once each; `own` marks this process's calls.
   */
  onActivity?: (activity: EngineActivity) => void;
}

/**
 * The engine as every entry point uses it. Opening a database either makes this process its host
 * (it holds the lock and opens the file) or a client of the process that already does; `call`
 * behaves the same either way, and survives the host going away.
 */
export class Engram {
  private constructor(private readonly shared: SharedEngine) {}

  static async open(options: OpenEngramOptions): Promise<Engram> {
    const logger = options.logger ?? silentLogger;
    const clock = options.clock ?? systemClock;
    const onActivity = options.onActivity;
    const workers = options.workers ?? defaultWorkerScripts();
    // Before anything is created: a host with a wrong path gets a one-line error and no database.
    checkWorkerScripts(workers);
    if (options.store !== undefined)
      return new Engram(await openReplicated(options.store, options, logger, clock));
    prepareDatabaseDirectory(options.dbPath);
    const shared = await openShared({
      dbPath: options.dbPath,
      clientName: options.clientName ?? 'engram',
      logger,
      connectTimeoutMs: options.connectTimeoutMs,
      ...(onActivity ? { onActivity: checkedActivity(onActivity, logger) } : {}),
      openHost: () =>
        EngineDispatcher.open({
          dbPath: options.dbPath,
          sqlWasmPath: options.sqlWasmPath,
          workers,
          logger,
          clock,
          limits: options.limits,
          snapshot: options.snapshot,
          pageCacheKib: options.pageCacheKib,
          embedding: options.embedding
            ? createEmbeddingProvider(options.embedding, logger, workers.embedding)
            : null,
          warmEmbedding: options.warmEmbedding,
          lexicalCopy: options.lexicalCopy,
          lifecycleEveryMs: options.lifecycleEveryMs,
          consolidateOnSchedule: options.consolidateOnSchedule,
          checkpointInWorker: options.checkpointInWorker,
          checkpointWorkerMinBytes: options.checkpointWorkerMinBytes,
          code: options.code,
          onEmbeddingProgress: options.onEmbeddingProgress,
        }),
    });
    return new Engram(shared);
  }

  get role(): EngineRole {
    return this.shared.role;
  }

  onRoleChange(listener: (role: EngineRole) => void): () => void {
    return this.shared.onRoleChange(listener);
  }

  async call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResult<M>> {
    return (await this.shared.call(method, params)) as MethodResult<M>;
  }

  /**
   * A call under a remote caller's request id (the team server's HTTP clients): a write re-sent
   * with the same id is answered from the first result, never applied twice.
   */
  callWithId(requestId: string, method: MethodName, params: unknown): Promise<unknown> {
    return this.shared.callWithId(requestId, method, params);
  }

  close(): Promise<void> {
    return this.shared.close();
  }
}

/**
 * The engine of a team server process over PostgreSQL. With a model, each process loads it: a
 * write's vectors are computed in its served call, memories left without one are embedded by
 * served writes of the engine's own, and the dense channel ranks in PostgreSQL
 * (engine/pgStore/replicatedEngine.ts).
 */
async function openReplicated(
  url: string,
  options: OpenEngramOptions,
  logger: Logger,
  clock: Clock,
): Promise<SharedEngine> {
  const { ReplicatedEngine } = await import('./pgStore/replicatedEngine');
  return ReplicatedEngine.open(
    url,
    {
      sqlWasmPath: options.sqlWasmPath,
      ...(options.workers ? { workers: options.workers } : {}),
      logger,
      clock,
      limits: options.limits,
      pageCacheKib: options.pageCacheKib,
      embedding: options.embedding
        ? createEmbeddingProvider(
            options.embedding,
            logger,
            (options.workers ?? defaultWorkerScripts()).embedding,
          )
        : null,
      lexicalCopy: 'background',
      // Once per period per store, whichever process's timer comes first (ReplicatedEngine.once).
      lifecycleEveryMs: options.lifecycleEveryMs,
      consolidateOnSchedule: options.consolidateOnSchedule,
    },
    {},
    options.storeSchema,
  );
}

/** Activity from the process layer (another process's notification, or our own host's) checked. */
function checkedActivity(
  listener: (activity: EngineActivity) => void,
  logger: Logger,
): (activity: unknown, own: boolean) => void {
  return (raw, own) => {
    const activity = parseActivity(raw);
    if (typeof activity === 'string')
      logger.warn(`ignored malformed activity from the engine host: ${activity}`);
    else listener({ ...activity, own });
  };
}
