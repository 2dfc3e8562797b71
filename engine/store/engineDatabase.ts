import type { SqlReader, SqlWriter } from './sqlAccess';

export interface WriteOptions {
  /**
   * @default true: returns after fdatasync. False: the sync happens in the background (derived
   * data). 'group': returns once journaled; the caller acknowledges after `whenDurable()`, which
   * shares one fdatasync among the writers waiting at that moment (group commit).
   */
  durable?: boolean | 'group';
}

/** What a store reports of its transactions and journal (the `stats` method shows it). */
export interface StoreStats {
  seq: number;
  snapshotSeq: number;
  journalBytes: number;
  journalRecords: number;
  /** False while a write made with `durable: false` waits for its background fdatasync. */
  journalSynced: boolean;
}

/**
 * The database the engine's memory model runs on: a sql.js database whose write transactions
 * are journaled somewhere. Two implementations: the durable file store (durableDatabase.ts) and a
 * replica of a PostgreSQL journal (engine/pgStore/replicaDatabase.ts). Both pass one contract
 * suite, through the engine over each (test/store/storeContract.ts).
 */
export interface EngineDatabase {
  /** Where the store is, for messages: a file path, or a PostgreSQL URL without its password. */
  readonly path: string;
  /** The last committed transaction number. */
  readonly lastSeq: number;
  /** True inside a write transaction (a write started now would be a nested savepoint). */
  readonly inWrite: boolean;
  read<T>(fn: (reader: SqlReader) => T): T;
  write<T>(fn: (writer: SqlWriter) => T, options?: WriteOptions): T;
  /** Writes a snapshot now if anything changed since the last one. */
  snapshot(): Promise<void>;
  /**
   * Runs `fn`, many writes in a row (a capture run), without snapshots exported on this thread by
   * journal size meanwhile; every write is journaled and acknowledged as always.
   */
  bulk<T>(fn: () => Promise<T>): Promise<T>;
  stats(): StoreStats;
  /**
   * Resolves once every write made with `durable: 'group'` so far is on disk. Omitted: such
   * writes are durable when `write` returns.
   */
  whenDurable?(): Promise<void>;
  /** `fn` runs before each snapshot starts, outside any write (the memory store settles). */
  beforeSnapshot?(fn: () => void): void;
  close(): Promise<void>;
}
