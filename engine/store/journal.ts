import {
  closeSync,
  copyFileSync,
  existsSync,
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
  }

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

  /** Appends one committed transaction and returns once it is on disk. */
  append(record: TransactionRecord): void {
    const payload = encodeRecord(record);
    const frame = Buffer.allocUnsafe(RECORD_HEADER_BYTES + payload.length);
    frame.writeUInt32LE(payload.length, 0);
    frame.writeUInt32LE(crc32(payload), 4);
    payload.copy(frame, RECORD_HEADER_BYTES);
    try {
      writeAll(this.fd, frame, this.size);
      fdatasyncSync(this.fd);
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
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
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
