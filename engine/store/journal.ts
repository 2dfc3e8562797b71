import {
  closeSync,
  copyFileSync,
  existsSync,
  fdatasync,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readSync,
  renameSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { EngramError } from '../errors';
import type { Logger } from '../host';
import { fsyncDirectory } from './fsync';
import { decodeRecord, encodeRecord } from './statementLog';
import type { TransactionRecord } from './statementLog';

/**
 * Append-only, checksummed write-ahead journal of committed transactions.
 *
 * File: an 8-byte magic, the 32-character id of the database it belongs to, then records of
 * [u32 LE payload length][u32 LE crc32 of payload][payload]. A record is appended with one write and
 * made durable with fdatasync before the transaction is acknowledged. A crash can only leave a torn
 * record at the tail; it is detected by its length or checksum and cut on open, never half-applied.
 */
const MAGIC = Buffer.from('ENGRAMJ1', 'ascii');
const HEADER_BYTES = MAGIC.length + 32;
/** How long a derived write waits for its background fdatasync (more writes may come first). */
const BACKGROUND_SYNC_DELAY_MS = 500;
const RECORD_HEADER_BYTES = 8;

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
    const fd = openSync(filePath, 'wx', 0o600);
    writeAll(fd, header, 0);
    fdatasyncSync(fd);
    fsyncDirectory(path.dirname(filePath));
    return new Journal(filePath, dbId, fd, header.length, []);
  }

  /**
   * Opens an existing journal, validates it belongs to `dbId`, reads its intact records and cuts a
   * torn tail. A checksum failure followed by more data is corruption, not a torn write: the file is
   * copied aside before it is cut, so nothing is destroyed.
   */
  static open(filePath: string, dbId: string, logger: Logger): OpenedJournal {
    const fd = openSync(filePath, 'r+');
    try {
      const bytes = readWhole(fd);
      if (bytes.length < HEADER_BYTES || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) {
        throw new EngramError('CORRUPT', `journal ${filePath} has no valid header`);
      }
      const ownerId = bytes.subarray(MAGIC.length, HEADER_BYTES).toString('ascii');
      if (ownerId !== dbId) {
        throw new EngramError(
          'CORRUPT',
          `journal ${filePath} belongs to database ${ownerId}, not ${dbId}: refusing to replay it`,
        );
      }
      const records: TransactionRecord[] = [];
      const positions: RecordPosition[] = [];
      let offset = HEADER_BYTES;
      let damage: 'short' | 'checksum' | 'payload' | undefined;
      while (offset < bytes.length) {
        const parsed = parseRecordAt(bytes, offset);
        if (typeof parsed === 'string') {
          damage = parsed;
          break;
        }
        records.push(parsed.record);
        positions.push({ seq: parsed.record.seq, offset });
        offset = parsed.next;
      }
      if (damage !== undefined) {
        const tail = bytes.length - offset;
        if (!isTornTail(bytes, offset, damage)) {
          const aside = `${filePath}.damaged-${Date.now()}`;
          copyFileSync(filePath, aside);
          logger.error('journal damaged before its tail; kept a copy and cut it', { aside, offset });
        } else {
          logger.warn('cut a torn journal tail (an unacknowledged write interrupted by a crash)', {
            bytes: tail,
          });
        }
        truncateDurably(fd, offset);
      }
      const journal = new Journal(filePath, dbId, fd, offset, positions);
      return { journal, records };
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  private static header(dbId: string): Buffer {
    if (!/^[0-9a-f]{32}$/.test(dbId)) throw new Error(`database id must be 32 hex characters, got ${dbId}`);
    return Buffer.concat([MAGIC, Buffer.from(dbId, 'ascii')]);
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
  append(record: TransactionRecord, sync = true): void {
    const payload = encodeRecord(record);
    const frame = Buffer.allocUnsafe(RECORD_HEADER_BYTES + payload.length);
    frame.writeUInt32LE(payload.length, 0);
    frame.writeUInt32LE(crc32(payload), 4);
    payload.copy(frame, RECORD_HEADER_BYTES);
    try {
      writeAll(this.fd, frame, this.size);
      if (sync) fdatasyncSync(this.fd);
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
    if (sync) this.syncedSize = this.size;
    else this.syncSoon();
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
  async flush(): Promise<void> {
    while (!this.synced && this.fd >= 0) {
      this.syncSoon();
      this.cancelSyncDelay?.();
      const pending = this.backgroundSync;
      if (!pending) return;
      await pending;
      if (!this.synced && this.backgroundSync === undefined) {
        // The background sync failed: sync here, so an error reaches the caller.
        fdatasyncSync(this.fd);
        this.syncedSize = this.size;
      }
    }
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
    if (fd < 0) {
      this.backgroundSync = undefined;
      resolve();
      return;
    }
    fdatasync(fd, (error) => {
      this.backgroundSync = undefined;
      // A failure (or a descriptor replaced by compaction meanwhile) leaves the records for the
      // next synced append, compaction or close, which sync the current file synchronously.
      if (!error && fd === this.fd) {
        this.syncedSize = Math.max(this.syncedSize, size);
        if (!this.synced) this.syncSoon();
      }
      resolve();
    });
  }

  /**
   * Drops the records with seq <= `keepAfterSeq` (they are inside a durable snapshot) by writing the
   * rest to a new file and renaming it over this one.
   */
  compact(keepAfterSeq: number): void {
    const firstKept = this.positions.findIndex((p) => p.seq > keepAfterSeq);
    const from = firstKept === -1 ? this.size : (this.positions[firstKept]?.offset ?? this.size);
    if (from === HEADER_BYTES) return;
    const tail = Buffer.allocUnsafe(this.size - from);
    readExactly(this.fd, tail, from);
    const temp = `${this.filePath}.tmp`;
    // Read-write: this descriptor becomes the journal, and the next compaction reads from it.
    const tempFd = openSync(temp, 'w+', 0o600);
    try {
      const header = Journal.header(this.dbId);
      writeAll(tempFd, header, 0);
      writeAll(tempFd, tail, header.length);
      fdatasyncSync(tempFd);
    } catch (error) {
      closeSync(tempFd);
      throw error;
    }
    renameSync(temp, this.filePath);
    fsyncDirectory(path.dirname(this.filePath));
    closeSync(this.fd);
    this.fd = tempFd;
    const shift = from - HEADER_BYTES;
    this.positions = this.positions
      .slice(firstKept === -1 ? this.positions.length : firstKept)
      .map((p) => ({ seq: p.seq, offset: p.offset - shift }));
    this.size -= shift;
    this.syncedSize = this.size; // the new file was synced whole
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
}

function parseRecordAt(
  bytes: Buffer,
  offset: number,
): { record: TransactionRecord; next: number } | 'short' | 'checksum' | 'payload' {
  if (offset + RECORD_HEADER_BYTES > bytes.length) return 'short';
  const length = bytes.readUInt32LE(offset);
  const checksum = bytes.readUInt32LE(offset + 4);
  const end = offset + RECORD_HEADER_BYTES + length;
  if (end > bytes.length) return 'short';
  const payload = bytes.subarray(offset + RECORD_HEADER_BYTES, end);
  if (crc32(payload) !== checksum) return 'checksum';
  try {
    return { record: decodeRecord(payload), next: end };
  } catch {
    return 'payload';
  }
}

/** A bad frame that reaches the end of the file is a torn write; one with data after it is not. */
function isTornTail(bytes: Buffer, offset: number, damage: 'short' | 'checksum' | 'payload'): boolean {
  if (damage === 'short') return true;
  return offset + RECORD_HEADER_BYTES + bytes.readUInt32LE(offset) >= bytes.length;
}

function readWhole(fd: number): Buffer {
  const size = fstatSync(fd).size;
  const buffer = Buffer.allocUnsafe(size);
  readExactly(fd, buffer, 0);
  return buffer;
}

function readExactly(fd: number, buffer: Buffer, position: number): void {
  let done = 0;
  while (done < buffer.length) {
    const n = readSync(fd, buffer, done, buffer.length - done, position + done);
    if (n === 0) throw new Error('unexpected end of journal');
    done += n;
  }
}

function writeAll(fd: number, buffer: Buffer, position: number): void {
  let done = 0;
  while (done < buffer.length) done += writeSync(fd, buffer, done, buffer.length - done, position + done);
}

function truncateDurably(fd: number, length: number): void {
  ftruncateSync(fd, length);
  fdatasyncSync(fd);
}

/**
 * The records in bytes [from, to) of a journal file, read without opening it for writing (another
 * thread may be appending after `to`). Any damaged frame is an error: this range was written whole.
 */
export function readJournalRecords(filePath: string, from: number, to: number): TransactionRecord[] {
  const fd = openSync(filePath, 'r');
  try {
    const bytes = Buffer.allocUnsafe(to - from);
    readExactly(fd, bytes, from);
    const records: TransactionRecord[] = [];
    for (let offset = 0; offset < bytes.length;) {
      const parsed = parseRecordAt(bytes, offset);
      if (typeof parsed === 'string')
        throw new EngramError('CORRUPT', `journal ${filePath}: ${parsed} record at byte ${from + offset}`);
      records.push(parsed.record);
      offset = parsed.next;
    }
    return records;
  } finally {
    closeSync(fd);
  }
}
