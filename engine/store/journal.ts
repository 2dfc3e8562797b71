import {
  closeSync,
  copyFileSync,
  existsSync,
  fdatasync,
  fdatasyncSync,
  openSync,
  renameSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import { EngramError } from '../errors';
import type { Logger } from '../host';
import { fsyncDirectory } from './fsync';
import {
  describeDamage,
  readExactly,
  readWhole,
  refuseLostNeededRecords,
  rewriteJournal,
  truncateDurably,
  writeAll,
} from './journalFile';
import {
  closedDuringCompaction,
  copyRangeInPool,
  dropCompactionTarget,
  fdatasyncAsync,
  MAX_POOL_ROUNDS,
  openCompactionTarget,
  THREAD_COPY_BYTES,
} from './journalCompaction';
import type { CompactionStep } from './journalCompaction';
import { encodeFrame, JOURNAL_HEADER_BYTES, JOURNAL_MAGIC, journalOwner, scanJournal } from './journalScan';
import { encodeRecord } from './statementLog';
import type { TransactionRecord } from './statementLog';

/**
 * Append-only, checksummed write-ahead journal of committed transactions.
 *
 * File: an 8-byte magic, the 32-character id of the database it belongs to, then records of
 * [u32 LE payload length][u32 LE crc32 of payload][payload]. A record is appended with one write and
 * made durable with fdatasync before the transaction is acknowledged. A crash can only leave a torn
 * record at the tail: it is cut on open, never half-applied. Any other damage is corruption: see open.
 */
const HEADER_BYTES = JOURNAL_HEADER_BYTES;
/** How long a derived write waits for its background fdatasync (more writes may come first). */
const BACKGROUND_SYNC_DELAY_MS = 500;

interface RecordPosition {
  seq: number;
  offset: number;
}

export interface OpenedJournal {
  journal: Journal;
  /** Every intact record, oldest first. */
  records: TransactionRecord[];
}

export class Journal {
  private positions: RecordPosition[];

  private constructor(
    readonly filePath: string,
    private readonly dbId: string,
    private fd: number,
    private size: number,
    positions: RecordPosition[],
  ) {
    this.positions = positions;
    this.syncedSize = size;
  }

  /** How much of the file is known to be on disk (records appended with `sync` false may not be). */
  private syncedSize: number;
  private backgroundSync: Promise<void> | undefined;
  /** Starts the delayed background sync now (set while it waits). */
  private cancelSyncDelay: (() => void) | undefined;

  /** Creates an empty journal for database `dbId`, replacing nothing (fails if one exists). */
  static create(filePath: string, dbId: string): Journal {
    const header = Journal.header(dbId);
    // Read-write: a compaction reads the records back from this descriptor.
    const fd = openSync(filePath, 'wx+', 0o600);
    writeAll(fd, header, 0);
    fdatasyncSync(fd);
    fsyncDirectory(path.dirname(filePath));
    return new Journal(filePath, dbId, fd, header.length, []);
  }

  /**
   * Opens an existing journal, validates it belongs to `dbId` and reads its intact records.
   *
   * A torn tail (see `JournalScan.tornTail`) is cut with a warning. Any other damage is corruption:
   * when every transaction the snapshot at `snapshotSeq` lacks is still readable, the file is copied
   * aside, rewritten with every intact record, and the copy is reported as an error. When one of
   * those transactions is lost and intact ones follow it, nothing is changed: opening fails and
   * `engram recover` decides what to keep.
   */
  static open(filePath: string, dbId: string, logger: Logger, snapshotSeq: number): OpenedJournal {
    let fd = openSync(filePath, 'r+');
    try {
      const bytes = readWhole(fd);
      const ownerId = journalOwner(bytes, filePath);
      if (ownerId !== dbId) {
        throw new EngramError(
          'CORRUPT',
          `journal ${filePath} belongs to database ${ownerId}, not ${dbId}: refusing to replay it`,
        );
      }
      const scan = scanJournal(bytes, snapshotSeq);
      const records = scan.frames.map((f) => f.record);
      const corrupt = scan.damaged.length > 0 || scan.frames.some((f) => f.repaired);
      let size = bytes.length;
      let positions = scan.frames.map((f) => ({ seq: f.record.seq, offset: f.offset }));
      if (corrupt) {
        refuseLostNeededRecords(filePath, scan, snapshotSeq);
        const aside = `${filePath}.damaged-${Date.now()}`;
        copyFileSync(filePath, aside);
        fsyncDirectory(path.dirname(filePath));
        const rewritten = rewriteJournal(
          filePath,
          Journal.header(dbId),
          scan.frames.map((f) => f.frame),
        );
        closeSync(fd);
        fd = rewritten.fd;
        size = rewritten.size;
        positions = rewritten.positions.map((offset, i) => ({ seq: records[i]!.seq, offset }));
        logger.error(
          `journal ${filePath} was damaged (${describeDamage(scan, snapshotSeq)}); kept a copy at ${aside} ` +
            `and replayed every intact transaction`,
          { aside, damaged: scan.damaged, repaired: scan.frames.filter((f) => f.repaired).length },
        );
      } else if (scan.tornTail) {
        logger.warn('cut a torn journal tail (an unacknowledged write interrupted by a crash)', {
          journal: filePath,
          bytes: scan.tornTail.to - scan.tornTail.from,
        });
        truncateDurably(fd, scan.tornTail.from);
        size = scan.tornTail.from;
      }
      const journal = new Journal(filePath, dbId, fd, size, positions);
      return { journal, records };
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /** The bytes a journal of database `dbId` starts with. */
  static header(dbId: string): Buffer {
    if (!/^[0-9a-f]{32}$/.test(dbId)) throw new Error(`database id must be 32 hex characters, got ${dbId}`);
    return Buffer.concat([JOURNAL_MAGIC, Buffer.from(dbId, 'ascii')]);
  }

  get recordCount(): number {
    return this.positions.length;
  }

  get byteSize(): number {
    return this.size;
  }

  /**
   * Appends one committed transaction. `sync` (the default): returns once it is on disk. Without,
   * the record is written to the file (a killed process loses nothing, the OS has it) and put on
   * disk by a background fdatasync, or by the next synced append, whichever comes first: for writes
   * that can be derived again (the code index), where a synchronous fdatasync would stall the thread
   * for a transaction that needs no acknowledgement. Records reach the disk in order either way.
   */
  append(record: TransactionRecord, sync: boolean | 'group' = true): void {
    const frame = encodeFrame(encodeRecord(record, true));
    try {
      writeAll(this.fd, frame, this.size);
      if (sync === true) {
        fdatasyncSync(this.fd);
        this.syncCount++;
      }
    } catch (error) {
      // Leave no partial frame behind: the next append would otherwise sit after garbage.
      try {
        truncateDurably(this.fd, this.size);
      } catch {
        // The open-time torn-tail check still protects the file.
      }
      throw new EngramError('STORE', `could not write the journal ${this.filePath}: ${String(error)}`);
    }
    this.positions.push({ seq: record.seq, offset: this.size });
    this.size += frame.length;
    this.appended += frame.length;
    if (sync === true) {
      this.syncedSize = this.size;
      this.syncedAppended = this.appended;
    } else if (sync === false) this.syncSoon();
    // 'group': the caller awaits syncThrough(byteSize) before acknowledging (group commit).
  }

  /** fdatasync calls made so far (for tests: group commit shares one among concurrent writers). */
  syncCount = 0;
  /**
   * Bytes appended since open, and how many of them are known on disk: positions a compaction
   * does not move, for writers waiting in syncThrough.
   */
  appended = 0;
  private syncedAppended = 0;

  /**
   * Resolves once the file's first `size` bytes are on disk. Group commit: writers that appended
   * while a sync was running share the next one, so N concurrent callers cost about two
   * fdatasyncs, not N. A failed background sync is retried here synchronously, so its error
   * reaches the caller.
   */
  async syncThrough(appended: number): Promise<void> {
    while (this.syncedAppended < appended && this.fd >= 0) {
      this.syncSoon(0);
      this.cancelSyncDelay?.();
      const pending = this.backgroundSync;
      if (!pending) return;
      await pending;
      if (this.syncedAppended < appended && this.backgroundSync === undefined && this.fd >= 0) {
        fdatasyncSync(this.fd);
        this.syncCount++;
        this.syncedSize = this.size;
        this.syncedAppended = this.appended;
      }
    }
  }

  /**
   * The file's byte range holding the records after `seq`, as it is now: what a checkpoint worker
   * reads (with `readJournalRecords`) to bring a snapshot at `seq` up to date, while this process
   * goes on appending after it.
   */
  rangeAfter(seq: number): { from: number; to: number; lastSeq: number } {
    const first = this.positions.find((p) => p.seq > seq);
    return {
      from: first?.offset ?? this.size,
      to: this.size,
      lastSeq: this.positions[this.positions.length - 1]?.seq ?? seq,
    };
  }

  /** True when every appended record is on disk. */
  get synced(): boolean {
    return this.syncedSize === this.size;
  }

  /** Resolves when the records appended so far are on disk (a background sync may be running). */
  flush(): Promise<void> {
    return this.syncThrough(this.appended);
  }

  /**
   * One background fdatasync at a time, started a moment after the append that asked for it: a
   * burst of derived writes (a scan) gets one sync at its end, and no sync runs under its writes
   * (Linux makes a write to a file wait while that file is being synced). Records appended
   * meanwhile get the next one.
   */
  private syncSoon(delayMs = BACKGROUND_SYNC_DELAY_MS): void {
    if (this.backgroundSync || this.fd < 0) return;
    this.backgroundSync = new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.syncNow(resolve), delayMs);
      timer.unref();
      this.cancelSyncDelay = () => {
        clearTimeout(timer);
        this.syncNow(resolve);
      };
    });
  }

  private syncNow(resolve: () => void): void {
    this.cancelSyncDelay = undefined;
    const fd = this.fd;
    const size = this.size;
    const appended = this.appended;
    if (fd < 0) {
      this.backgroundSync = undefined;
      resolve();
      return;
    }
    this.syncCount++;
    fdatasync(fd, (error) => {
      this.backgroundSync = undefined;
      // A failure (or a descriptor replaced by compaction meanwhile) leaves the records for the
      // next synced append, compaction or close, which sync the current file synchronously.
      if (!error && fd === this.fd) {
        this.syncedSize = Math.max(this.syncedSize, size);
        this.syncedAppended = Math.max(this.syncedAppended, appended);
        if (!this.synced) this.syncSoon();
      }
      resolve();
    });
  }

  /** Bytes the last compaction copied on this thread (tests: the rest appended while it ran). */
  compactedOnThread = 0;
  private compacting: Promise<void> | undefined;

  /**
   * Drops the records with seq <= `keepAfterSeq` (they are inside a durable snapshot) by writing the
   * rest to a new file and renaming it over this one. The records are copied and synced in the
   * thread pool while appends go on to the old file (it stays the journal, synced as usual, until
   * the rename); then, on this thread, only what was appended meanwhile is copied and synced before
   * the rename, so no append falls between the copy and the rename. A crash at any point leaves the
   * old file or the new one, each holding every acknowledged record. One compaction at a time.
   */
  compact(keepAfterSeq: number, onStep?: (step: CompactionStep) => void): Promise<void> {
    const run = (this.compacting ?? Promise.resolve()).then(() =>
      this.compactNow(keepAfterSeq, onStep ?? (() => undefined)),
    );
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.compacting = settled;
    void settled.then(() => {
      if (this.compacting === settled) this.compacting = undefined;
    });
    return run;
  }

  private async compactNow(keepAfterSeq: number, onStep: (step: CompactionStep) => void): Promise<void> {
    const firstKept = this.positions.findIndex((p) => p.seq > keepAfterSeq);
    const from = firstKept === -1 ? this.size : (this.positions[firstKept]?.offset ?? this.size);
    if (from === HEADER_BYTES || this.fd < 0) return;
    const source = this.fd;
    const stillOpen = () => this.fd === source;
    const temp = `${this.filePath}.tmp`;
    const target = await openCompactionTarget(temp, Journal.header(this.dbId));
    let copied = from;
    try {
      for (let round = 0; round < MAX_POOL_ROUNDS; round++) {
        const until = this.size;
        const at = HEADER_BYTES + (copied - from);
        await copyRangeInPool(source, target, { from: copied, to: until, at }, stillOpen, () =>
          onStep('copying'),
        );
        await fdatasyncAsync(target);
        if (!stillOpen()) throw closedDuringCompaction();
        copied = until;
        if (this.size - copied <= THREAD_COPY_BYTES) break;
      }
      onStep('copied');
      // From here to the swap, on this thread: nothing can be appended to the old file meanwhile.
      const rest = Buffer.allocUnsafe(this.size - copied);
      readExactly(source, rest, copied);
      writeAll(target, rest, HEADER_BYTES + (copied - from));
      fdatasyncSync(target);
      this.compactedOnThread = rest.length;
      onStep('synced');
      renameSync(temp, this.filePath);
    } catch (error) {
      await dropCompactionTarget(target, temp);
      throw error;
    }
    // Renamed: the new file is the journal, appends go there before anything else can fail.
    closeSync(source);
    this.fd = target;
    const shift = from - HEADER_BYTES;
    this.positions = this.positions
      .slice(firstKept === -1 ? this.positions.length : firstKept)
      .map((p) => ({ seq: p.seq, offset: p.offset - shift }));
    this.size -= shift;
    this.syncedSize = this.size; // the new file was synced whole
    this.syncedAppended = this.appended;
    fsyncDirectory(path.dirname(this.filePath));
    onStep('renamed');
  }

  close(): void {
    if (this.fd < 0) return;
    // A delayed background sync must not start on a closed descriptor: it resolves as a no-op.
    const start = this.cancelSyncDelay;
    try {
      if (!this.synced) fdatasyncSync(this.fd);
    } finally {
      closeSync(this.fd);
      this.fd = -1;
      start?.();
    }
  }

  static exists(filePath: string): boolean {
    return existsSync(filePath);
  }

  /** True when `filePath` exists and holds no record (a header at most). */
  static isEmptyFile(filePath: string): boolean {
    return existsSync(filePath) && statSync(filePath).size <= HEADER_BYTES;
  }
}
