import {
  closeSync,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readSync,
  renameSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { EngramError } from '../errors';
import { fsyncDirectory } from './fsync';
import { parseRecordAt } from './journalScan';
import type { JournalScan } from './journalScan';
import type { TransactionRecord } from './statementLog';

/**
 * Reading, writing and rewriting journal files, for the Journal (journal.ts) and for readers of a
 * range of one (the checkpoint worker, read-only copies): the file format is described there.
 */

/**
 * Opening must not cut intact records the snapshot lacks: when a lost transaction after the
 * snapshot has readable ones after it, replaying stops there, and cutting would drop them.
 */
export function refuseLostNeededRecords(filePath: string, scan: JournalScan, snapshotSeq: number): void {
  let expected = snapshotSeq + 1;
  for (const { record } of scan.frames) {
    if (record.seq < expected) continue;
    if (record.seq > expected) {
      const following = scan.frames.filter((f) => f.record.seq > expected).length;
      const lost = record.seq - 1 === expected ? `${expected}` : `${expected}-${record.seq - 1}`;
      throw new EngramError(
        'CORRUPT',
        `journal ${filePath} is damaged: transaction ${lost} is unreadable and the snapshot does not hold it, ` +
          `with ${following} intact transactions after it; nothing was changed: run \`engram recover\` to see what it can save`,
        { journal: filePath },
      );
    }
    expected++;
  }
}

export function describeDamage(scan: JournalScan, snapshotSeq: number): string {
  const parts = scan.damaged.map((range) => {
    const where = `bytes ${range.from}-${range.to}`;
    if (range.before === undefined)
      return `${where}: every transaction after ${range.after ?? 0} is unreadable`;
    const first = (range.after ?? 0) + 1;
    const last = range.before - 1;
    if (last < first) return `${where}: no transaction lost`;
    const held = last <= snapshotSeq ? ', all held by the snapshot' : '';
    return `${where}: transaction ${first === last ? first : `${first}-${last}`} unreadable${held}`;
  });
  const repaired = scan.frames.filter((f) => f.repaired).length;
  if (repaired > 0) parts.push(`${repaired} record length${repaired === 1 ? '' : 's'} repaired`);
  return parts.join('; ');
}

/** Writes `frames` after `header` to a new file, renames it over `filePath`; returns its descriptor. */
export function rewriteJournal(
  filePath: string,
  header: Buffer,
  frames: Buffer[],
): { fd: number; size: number; positions: number[] } {
  const temp = `${filePath}.tmp`;
  // Read-write: this descriptor becomes the journal, and the next compaction reads from it.
  const fd = openSync(temp, 'w+', 0o600);
  const positions: number[] = [];
  let size = 0;
  try {
    for (const part of [header, ...frames]) {
      if (part !== header) positions.push(size);
      writeAll(fd, part, size);
      size += part.length;
    }
    fdatasyncSync(fd);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  renameSync(temp, filePath);
  fsyncDirectory(path.dirname(filePath));
  return { fd, size, positions };
}

export function readWhole(fd: number): Buffer {
  const size = fstatSync(fd).size;
  const buffer = Buffer.allocUnsafe(size);
  readExactly(fd, buffer, 0);
  return buffer;
}

export function readExactly(fd: number, buffer: Buffer, position: number): void {
  let done = 0;
  while (done < buffer.length) {
    const n = readSync(fd, buffer, done, buffer.length - done, position + done);
    if (n === 0) throw new Error('unexpected end of journal');
    done += n;
  }
}

export function writeAll(fd: number, buffer: Buffer, position: number): void {
  let done = 0;
  while (done < buffer.length) done += writeSync(fd, buffer, done, buffer.length - done, position + done);
}

export function truncateDurably(fd: number, length: number): void {
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
    return readJournalRecordsAt(fd, from, to, filePath);
  } finally {
    closeSync(fd);
  }
}

/** readJournalRecords from a descriptor opened earlier (databaseCopy.ts); `label` names it in errors. */
export function readJournalRecordsAt(
  fd: number,
  from: number,
  to: number,
  label: string,
): TransactionRecord[] {
  const bytes = Buffer.allocUnsafe(to - from);
  readExactly(fd, bytes, from);
  const records: TransactionRecord[] = [];
  for (let offset = 0; offset < bytes.length;) {
    const parsed = parseRecordAt(bytes, offset);
    if (typeof parsed === 'string')
      throw new EngramError('CORRUPT', `journal ${label}: ${parsed} record at byte ${from + offset}`);
    records.push(parsed.record);
    offset = parsed.next;
  }
  return records;
}
