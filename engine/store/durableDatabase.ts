import { closeSync, openSync } from 'node:fs';
import type { Database } from 'sql.js';
import { EngramError } from '../errors';
import { closeJournalBytes } from './closeSnapshot';
import { releaseCopy } from './databaseCopy';
import type { DatabaseCopy } from './databaseCopy';
import { CHECKPOINT_WORKER_MIN_BYTES, DEFAULT_SNAPSHOT_POLICY } from './durableOptions';
import type { DurableDatabaseOptions, SnapshotPolicy } from './durableOptions';
import { fileCapacity } from './fileCapacity';
import type { FileCapacity } from './fileCapacity';
import type { Journal } from './journal';
import { runMigrations } from './migrate';
import type { EngineDatabase, StoreStats, WriteOptions } from './engineDatabase';
import { LocalTransactions } from './localTransactions';
import type { SqlReader, SqlWriter } from './sqlAccess';
import { defaultWorkerScripts } from '../process/workerScripts';
import { runCheckpoint } from './checkpoint';
import { exportSnapshot, installSnapshot } from './snapshotInstall';
import { loadStore } from './storeOpen';
import { storeFiles } from './storeFiles';
import { recoverStore } from './recoverStore';
import type { RecoverOptions, RecoverReport } from './recoverStore';

export type { CheckpointWorkerOptions, DurableDatabaseOptions, SnapshotPolicy } from './durableOptions';
export type { WriteOptions } from './engineDatabase';

/**
 * For writes of data derived from the workspace (the code index, codebase memories): journaled,
 * synced in the background. A power cut can lose the last of them; the next scan derives them again.
 */
export const DERIVED_WRITE: WriteOptions = { durable: false };

/** During bulk, journal bytes per database byte before a snapshot (replay bounded, exports few). */
const BULK_JOURNAL_PER_DATABASE = 4;

/**
 * A sql.js database that loses no acknowledged write.
 *
 * sql.js holds the database in memory, so durability comes from two files beside it: every write
 * transaction is appended to a checksummed journal and fdatasync'ed before `write` returns
 * (acknowledged = durable), and the whole database is snapshotted in the background (write temp,
 * fsync, rename). Opening loads the snapshot and replays the journal records it does not contain.
 * The previous snapshot is kept as `<db>.prev`, and the journal keeps every record since it, so a
 * damaged snapshot can be recovered without loss.
 */
export class DurableDatabase implements EngineDatabase {
  private readonly transactions: LocalTransactions;
  private readonly policy: SnapshotPolicy;
  private snapshotSeq: number;
  private closed = false;
  private snapshotting: Promise<void> | undefined;
  /** Set when close() starts: background snapshots are no longer started (close takes the last one). */
  private closing = false;
  private closingDone: Promise<void> | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  /** Room kept ahead of the database file, so that a commit never waits for MEMFS to copy it. */
  private readonly capacity: FileCapacity | undefined;
  /** Bulk writes running (see bulk): size-triggered exports on this thread wait for them. */
  private bulkRuns = 0;
  private pageSize: number | undefined;

  private constructor(
    private readonly db: Database,
    private readonly journal: Journal,
    private readonly options: DurableDatabaseOptions,
    readonly dbId: string,
    seq: number,
  ) {
    this.transactions = new LocalTransactions(db, seq);
    this.policy = { ...DEFAULT_SNAPSHOT_POLICY, ...options.snapshot };
    this.snapshotSeq = seq;
    this.capacity = fileCapacity(db);
  }

  private get seq(): number {
    return this.transactions.seq;
  }

  private get statements(): LocalTransactions['statements'] {
    return this.transactions.statements;
  }

  /**
   * Opens (or creates) the database at `options.path`, replays its journal and runs pending
   * migrations. A damaged database file is never modified: this throws `CORRUPT`, naming the file
   * and the `.prev` snapshot that `recover` would restore.
   */
  static async open(options: DurableDatabaseOptions): Promise<DurableDatabase> {
    const loaded = await loadStore(options);
    try {
      const store = new DurableDatabase(loaded.db, loaded.journal, options, loaded.dbId, loaded.seq);
      store.snapshotSeq = loaded.snapshotSeq;
      runMigrations(store, options.migrations);
      return store;
    } catch (error) {
      loaded.journal.close();
      loaded.db.close();
      throw error;
    }
  }

  /** Rebuilds a damaged database from what is intact: see recoverStore. */
  static recover(options: RecoverOptions): Promise<RecoverReport> {
    return recoverStore(options);
  }

  get path(): string {
    return this.options.path;
  }

  /** The last committed transaction number. */
  get lastSeq(): number {
    return this.seq;
  }

  /** Runs read-only queries. */
  read<T>(fn: (reader: SqlReader) => T): T {
    this.assertUsable();
    return fn(this.statements);
  }

  /**
   * Runs `fn` in one transaction. Returns only after the transaction is in the journal on disk;
   * if `fn` throws, nothing is kept. Nested calls join the outer transaction. Every text a
   * statement binds goes through the write policy first (writePolicy.ts: secrets are redacted).
   *
   * `durable: false` is for data that can be derived again (the code index and what is made from
   * it): the transaction is journaled and survives the process being killed, but its fdatasync runs
   * in the background instead of on this thread, so a power cut may lose it (the next scan redoes it).
   */
  write<T>(fn: (writer: SqlWriter) => T, options: WriteOptions = {}): T {
    this.assertUsable();
    const before = this.transactions.seq;
    const durable = options.durable ?? true;
    const result = this.transactions.write(fn, this.options.clock(), (record) =>
      this.journal.append(record, durable),
    );
    if (this.transactions.seq !== before) {
      if (durable === 'group') this.groupAppended = this.journal.appended;
      this.capacity?.ensure(this.databaseBytes());
      this.afterWrite();
    }
    return result;
  }

  private beforeSnapshotHook: (() => void) | undefined;

  /** See EngineDatabase.beforeSnapshot. */
  beforeSnapshot(fn: () => void): void {
    this.beforeSnapshotHook = fn;
  }

  private settleBeforeSnapshot(): void {
    try {
      this.beforeSnapshotHook?.();
    } catch (error) {
      // The snapshot is still consistent (the journal replays what follows it): only logged.
      this.options.logger.warn('could not write pending rows before a snapshot', { error: String(error) });
    }
  }

  /** The journal's position (Journal.appended) after the last `durable: 'group'` write. */
  private groupAppended = 0;

  /** See EngineDatabase.whenDurable: group commit, one fdatasync for the writers waiting now. */
  whenDurable(): Promise<void> {
    // Closed: close() synced the journal (a caller may wait across a close).
    return this.journal.syncThrough(this.groupAppended);
  }

  /** fdatasync calls on the journal since open (tests count them: group commit). */
  get journalSyncs(): number {
    return this.journal.syncCount;
  }

  /** True inside a write transaction (a write started now would be a nested savepoint). */
  get inWrite(): boolean {
    return this.transactions.inWrite;
  }

  /**
   * The snapshot and journal opened now, for a worker to build a read-only copy of the database as
   * it is at this moment (databaseCopy.ts): long reads then leave this thread free. Only for hosts
   * that checkpoint in a worker, and only past the same size (smaller ones are read here).
   */
  openCopy(): DatabaseCopy | undefined {
    this.assertUsable();
    const worker = this.options.checkpointWorker;
    if (!worker || this.databaseBytes() < (worker.minDatabaseBytes ?? CHECKPOINT_WORKER_MIN_BYTES))
      return undefined;
    const files = storeFiles(this.options.path);
    // Writes are synchronous: the journal ends with transaction `seq` right now.
    const range = this.journal.rangeAfter(this.snapshotSeq);
    const databaseFd = openSync(files.database, 'r');
    let journalFd: number;
    try {
      journalFd = openSync(files.journal, 'r');
    } catch (error) {
      closeSync(databaseFd);
      throw error;
    }
    const source = {
      databaseFd,
      journalFd,
      from: range.from,
      to: range.to,
      fromSeq: this.snapshotSeq,
      toSeq: this.seq,
      label: this.options.path,
    };
    return { source, close: () => releaseCopy(source) };
  }

  /** Writes a snapshot now if anything changed since the last one. */
  snapshot(): Promise<void> {
    this.assertUsable();
    // Settling writes, and a write may start a snapshot itself: asked again below.
    if (!this.snapshotting && !this.inWrite) this.settleBeforeSnapshot();
    if (!this.snapshotting) {
      this.snapshotting = this.writeSnapshot().finally(() => {
        this.snapshotting = undefined;
      });
    }
    return this.snapshotting;
  }

  /** The database file's size and the bytes reserved for it (capacity 0: no room kept; fileCapacity.ts). */
  fileRoom(): { fileBytes: number; capacityBytes: number } {
    return { fileBytes: this.databaseBytes(), capacityBytes: this.capacity?.bytes ?? 0 };
  }

  /**
   * Runs `fn` exporting snapshots on this thread only once the journal outgrows the database (not
   * every 16 MiB): an export copies the whole database, so a long capture that exported every 16
   * MiB spent a growing share of its CPU exporting (13% over 328 MB of transcripts). Every write is
   * still journaled and synced before it returns, so a crash meanwhile loses nothing: the next open
   * replays a longer journal, at most about four times the database's size. Afterwards one snapshot is started if the journal is past its size. A checkpoint
   * worker's snapshots (off this thread) and the idle snapshot go on as usual.
   */
  async bulk<T>(fn: () => Promise<T>): Promise<T> {
    this.assertUsable();
    this.bulkRuns++;
    try {
      return await fn();
    } finally {
      this.bulkRuns--;
      if (this.bulkRuns === 0 && !this.closed && !this.closing && this.journalFull())
        void this.snapshot().catch((error: unknown) => this.reportSnapshotFailure(error));
    }
  }

  stats(): StoreStats {
    return {
      seq: this.seq,
      snapshotSeq: this.snapshotSeq,
      journalBytes: this.journal.byteSize,
      journalRecords: this.journal.recordCount,
      journalSynced: this.journal.synced,
    };
  }

  /** Resolves when every journaled write is on disk (writes made with `durable: false` included). */
  syncJournal(): Promise<void> {
    this.assertUsable();
    return this.journal.flush();
  }

  /** Flushes (snapshots if the journal is large), then releases the database. Safe to call twice. */
  close(): Promise<void> {
    this.closingDone ??= this.closeOnce();
    return this.closingDone;
  }

  private async closeOnce(): Promise<void> {
    if (this.closed) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.closing = true;
    try {
      // A write while we wait may start another background snapshot: wait until none runs, or the
      // journal would be closed under its compaction.
      while (this.snapshotting) await this.snapshotting.catch(() => undefined);
      if (
        !this.transactions.broken &&
        this.seq !== this.snapshotSeq &&
        this.bytesToReplay() >= closeJournalBytes(this.policy.closeJournalBytes, this.options.path)
      ) {
        await this.snapshot();
      }
    } finally {
      this.closed = true;
      this.transactions.clear();
      this.journal.close();
      this.db.close();
      this.capacity?.release();
    }
  }

  /** The journal's bytes after the last snapshot: what the next open replays. */
  private bytesToReplay(): number {
    const { from, to } = this.journal.rangeAfter(this.snapshotSeq);
    return to - from;
  }

  private afterWrite(): void {
    if (this.closing) return;
    if (this.journalFull() && (this.bulkRuns === 0 || this.exportsInWorker() || this.bulkJournalFull())) {
      void this.snapshot().catch((error: unknown) => this.reportSnapshotFailure(error));
      return;
    }
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (!this.closed && !this.closing)
        void this.snapshot().catch((error: unknown) => this.reportSnapshotFailure(error));
    }, this.policy.idleMs);
    this.idleTimer.unref();
  }

  private journalFull(): boolean {
    return this.journal.byteSize >= this.policy.maxJournalBytes;
  }

  /**
   * During bulk: the journal has outgrown the database four times over. Exporting then keeps the
   * replay after a crash within a few databases' worth of journal, while the exports' total work
   * stays a small multiple of the final database (each follows several databases' worth of writes).
   */
  private bulkJournalFull(): boolean {
    return (
      this.journal.byteSize >=
      Math.max(this.policy.maxJournalBytes, BULK_JOURNAL_PER_DATABASE * this.databaseBytes())
    );
  }

  /** True when a snapshot now would be written by the checkpoint worker, not exported here. */
  private exportsInWorker(): boolean {
    const worker = this.options.checkpointWorker;
    return (
      worker !== undefined && this.databaseBytes() >= (worker.minDatabaseBytes ?? CHECKPOINT_WORKER_MIN_BYTES)
    );
  }

  private reportSnapshotFailure(error: unknown): void {
    // The journal still holds every write: a failed snapshot loses nothing, it only delays compaction.
    this.options.logger.error('snapshot failed; the journal keeps every write', { error: String(error) });
  }

  private async writeSnapshot(): Promise<void> {
    const seq = this.seq;
    if (seq === this.snapshotSeq) return;
    const files = storeFiles(this.options.path);
    const worker = this.options.checkpointWorker;
    let sum: string;
    if (worker && this.exportsInWorker()) {
      // Writes are synchronous, so the journal ends with transaction `seq` right now; the worker
      // reads only up to here while later writes go on appending.
      const range = this.journal.rangeAfter(this.snapshotSeq);
      if (range.lastSeq !== seq)
        throw new EngramError('STORE', `journal ends at ${range.lastSeq}, not ${seq}`);
      sum = (
        await runCheckpoint(worker.script ?? defaultWorkerScripts().checkpoint, {
          sqlWasmPath: worker.sqlWasmPath,
          databasePath: files.database,
          journalPath: files.journal,
          from: range.from,
          to: range.to,
          fromSeq: this.snapshotSeq,
          toSeq: seq,
          tempPath: files.snapshotTemp,
        })
      ).sum;
    } else {
      sum = await exportSnapshot(this.db, files.snapshotTemp);
    }
    installSnapshot(files, sum);
    const previousSeq = this.snapshotSeq;
    this.snapshotSeq = seq;
    await this.journal.compact(previousSeq, this.options.onCompactionStep);
  }

  /** The database's size as SQLite counts it (the bytes an export would produce). */
  private databaseBytes(): number {
    const pages = this.statements.value<number>('PRAGMA page_count') ?? 0;
    // Asked after every write: the page size is fixed once the database has a page (no VACUUM runs).
    this.pageSize ??= this.statements.value<number>('PRAGMA page_size') ?? 4096;
    return pages * this.pageSize;
  }

  private assertUsable(): void {
    if (this.closed) throw new EngramError('CLOSED', `database ${this.options.path} is closed`);
    const broken = this.transactions.broken;
    if (broken) throw broken;
  }
}
