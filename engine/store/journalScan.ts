import { crc32 } from 'node:zlib';
import { EngramError } from '../errors';
import { decodeRecord, lazyRecord, RECORD_PAYLOAD_PREFIX, recordHeader } from './statementLog';
import type { TransactionRecord } from './statementLog';

/**
 * Reading a journal file, damaged or not (see journal.ts for the format). Damage is never assumed
 * to end the file: after a bad frame the scan looks for the next intact one, so a flipped bit costs
 * at most the record it hit, and a flipped length field costs nothing (the record's checksum still
 * proves it whole once the next frame shows where it ends).
 */
export const JOURNAL_MAGIC = Buffer.from('ENGRAMJ1', 'ascii');
export const JOURNAL_HEADER_BYTES = JOURNAL_MAGIC.length + 32;
export const RECORD_HEADER_BYTES = 8;

const PAYLOAD_PREFIX = Buffer.from(RECORD_PAYLOAD_PREFIX, 'utf8');

export interface ScannedFrame {
  record: TransactionRecord;
  offset: number;
  /** The frame as it should be on disk (a repaired one gets its true length). */
  frame: Buffer;
  /** Its length field was damaged; the payload matched its checksum. */
  repaired: boolean;
}

/** Bytes [from, to) that hold no intact record. */
export interface DamagedRange {
  from: number;
  to: number;
  /** The last intact transaction before the damage, and the first after it. */
  after: number | undefined;
  before: number | undefined;
}

export interface JournalScan {
  frames: ScannedFrame[];
  /** Damage that is not a torn tail: corruption, always kept in a copy. */
  damaged: DamagedRange[];
  /**
   * A last frame cut short by the end of the file, with nothing readable after it and a payload
   * that is not whole: an append interrupted by a crash, which was never acknowledged.
   */
  tornTail: DamagedRange | undefined;
}

/** The id of the database the journal belongs to; a missing or foreign magic is an error. */
export function journalOwner(bytes: Buffer, filePath: string): string {
  if (bytes.length < JOURNAL_HEADER_BYTES || !bytes.subarray(0, JOURNAL_MAGIC.length).equals(JOURNAL_MAGIC)) {
    throw new EngramError('CORRUPT', `journal ${filePath} has no valid header`);
  }
  return bytes.subarray(JOURNAL_MAGIC.length, JOURNAL_HEADER_BYTES).toString('ascii');
}

export function encodeFrame(payload: Buffer): Buffer {
  const frame = Buffer.allocUnsafe(RECORD_HEADER_BYTES + payload.length);
  frame.writeUInt32LE(payload.length, 0);
  frame.writeUInt32LE(crc32(payload), 4);
  payload.copy(frame, RECORD_HEADER_BYTES);
  return frame;
}

/**
 * Every intact record of a whole journal file (header included), and where it is damaged.
 * Records up to `heldUpTo` (those a snapshot already holds) are checked by their checksum and
 * decoded only if their statements are read (lazyRecord).
 */
export function scanJournal(bytes: Buffer, heldUpTo = -Infinity): JournalScan {
  const frames: ScannedFrame[] = [];
  const damaged: DamagedRange[] = [];
  let tornTail: DamagedRange | undefined;
  let offset = JOURNAL_HEADER_BYTES;
  let lastSeq = -Infinity;
  const keep = (record: TransactionRecord, at: number, frame: Buffer, repaired: boolean) => {
    frames.push({ record, offset: at, frame, repaired });
    lastSeq = record.seq;
  };
  while (offset < bytes.length) {
    const parsed = parseRecordAt(bytes, offset, heldUpTo);
    if (typeof parsed !== 'string') {
      keep(parsed.record, offset, bytes.subarray(offset, parsed.next), false);
      offset = parsed.next;
      continue;
    }
    const next = nextIntactFrame(bytes, offset, lastSeq);
    const end = next ?? bytes.length;
    const whole = recordSpanning(bytes, offset, end, lastSeq);
    if (whole) {
      keep(whole, offset, encodeFrame(bytes.subarray(offset + RECORD_HEADER_BYTES, end)), true);
    } else {
      const range: DamagedRange = {
        from: offset,
        to: end,
        after: Number.isFinite(lastSeq) ? lastSeq : undefined,
        before:
          next === undefined
            ? undefined
            : (parseRecordAt(bytes, next) as { record: TransactionRecord }).record.seq,
      };
      if (next === undefined && parsed === 'short') tornTail = range;
      else damaged.push(range);
    }
    offset = end;
  }
  return { frames, damaged, tornTail };
}

export function parseRecordAt(
  bytes: Buffer,
  offset: number,
  heldUpTo = -Infinity,
): { record: TransactionRecord; next: number } | 'short' | 'checksum' | 'payload' {
  if (offset + RECORD_HEADER_BYTES > bytes.length) return 'short';
  const length = bytes.readUInt32LE(offset);
  const checksum = bytes.readUInt32LE(offset + 4);
  const end = offset + RECORD_HEADER_BYTES + length;
  if (end > bytes.length) return 'short';
  const payload = bytes.subarray(offset + RECORD_HEADER_BYTES, end);
  if (crc32(payload) !== checksum) return 'checksum';
  try {
    const header = recordHeader(payload);
    const held = header !== undefined && header.seq <= heldUpTo;
    return { record: held ? lazyRecord(payload, header) : decodeRecord(payload), next: end };
  } catch {
    return 'payload';
  }
}

/**
 * The offset of the next intact frame after a bad one at `offset`, holding a later transaction.
 * Payloads are JSON that starts with the same prefix, which JSON cannot contain anywhere else
 * unescaped, so only those places are tried: linear in the file, whatever the damage.
 */
function nextIntactFrame(bytes: Buffer, offset: number, lastSeq: number): number | undefined {
  for (
    let at = bytes.indexOf(PAYLOAD_PREFIX, offset + 1 + RECORD_HEADER_BYTES);
    at !== -1;
    at = bytes.indexOf(PAYLOAD_PREFIX, at + 1)
  ) {
    const parsed = parseRecordAt(bytes, at - RECORD_HEADER_BYTES);
    if (typeof parsed !== 'string' && parsed.record.seq > lastSeq) return at - RECORD_HEADER_BYTES;
  }
  return undefined;
}

/** The record in bytes [offset, end) if only its length field is wrong: the checksum proves the rest. */
function recordSpanning(
  bytes: Buffer,
  offset: number,
  end: number,
  lastSeq: number,
): TransactionRecord | undefined {
  if (end - offset <= RECORD_HEADER_BYTES) return undefined;
  const payload = bytes.subarray(offset + RECORD_HEADER_BYTES, end);
  if (crc32(payload) !== bytes.readUInt32LE(offset + 4)) return undefined;
  try {
    const record = decodeRecord(payload);
    return record.seq > lastSeq ? record : undefined;
  } catch {
    return undefined;
  }
}
