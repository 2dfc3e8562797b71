import type { Database, SqlJsStatic } from 'sql.js';
import type { Clock, Logger } from '../host';
import type { CheckpointWorkerScript } from './checkpoint';
import type { CompactionStep } from './journalCompaction';
import type { Migration } from './migrate';

// How a DurableDatabase (durableDatabase.ts) is opened, and when it snapshots.

export interface SnapshotPolicy {
  /** Snapshot soon once the journal holds this many bytes. @default 16 MiB */
  maxJournalBytes: number;
  /** Snapshot after this long without writes, if anything was written. @default 5000 */
  idleMs: number;
  /**
   * On close, snapshot if the journal holds at least this many bytes after the last snapshot;
   * `by-size`: a threshold from the snapshot's size that keeps the next open's replay short, for
   * processes that open for one command (closeSnapshot.ts). @default 1 MiB
   */
  closeJournalBytes: number | 'by-size';
}

export interface DurableDatabaseOptions {
  /** The database file, e.g. `<workspace>/.engram/memory.db`. */
  path: string;
  sql: SqlJsStatic;
  logger: Logger;
  clock: Clock;
  migrations: readonly Migration[];
  snapshot?: Partial<SnapshotPolicy>;
  /** Called on the open database before anything runs: register SQL functions here. */
  configure?: (db: Database) => void;
  /** SQLite's page cache (KiB; see setPageCache). @default DEFAULT_PAGE_CACHE_KIB */
  pageCacheKib?: number;
  /**
   * Write snapshots in a worker thread (long-lived hosts: the extension, the MCP bridge): it loads
   * the last snapshot and replays the journal onto it, so this thread never exports the database.
   * Omitted: snapshots are exported here (short-lived processes, tests).
   */
  checkpointWorker?: CheckpointWorkerOptions;
  /**
   * Called at each step of a journal compaction (journalCompaction.ts): the crash test kills the
   * process there. Nothing else needs it.
   */
  onCompactionStep?: (step: CompactionStep) => void;
}

export interface CheckpointWorkerOptions {
  sqlWasmPath: string;
  script?: CheckpointWorkerScript;
  /**
   * Databases smaller than this are exported on the host's thread instead: a worker is a second
   * V8 isolate, sql.js runtime and database copy (~60 MB of RSS while it runs, and the allocator
   * keeps part of it), while exporting a few MB here blocks for milliseconds.
   * @default 4 MiB (an 11 MB export on the host thread, at 10k knowledge-graph entities, slowed the
   * compat bridge's read_graph about 2x in bench:mcp while it ran)
   */
  minDatabaseBytes?: number;
}

/** CheckpointWorkerOptions.minDatabaseBytes's default. */
export const CHECKPOINT_WORKER_MIN_BYTES = 4 * 1024 * 1024;

/** SnapshotPolicy's defaults. */
export const DEFAULT_SNAPSHOT_POLICY: SnapshotPolicy = {
  maxJournalBytes: 16 * 1024 * 1024,
  idleMs: 5000,
  closeJournalBytes: 1024 * 1024,
};
