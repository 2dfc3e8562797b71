import { compactSql, sqlText } from './compactStatements';
import type { CompactSql } from './compactStatements';

/**
 * The journal stores each committed transaction as the list of SQL statements it executed, with
 * their bound parameters. Replaying them in order against the snapshot the transaction started
 * from reproduces it exactly, because every value (ids, times) is bound, never computed by SQLite.
 */
export type SqlValue = string | number | null | Uint8Array;
export type SqlParams = SqlValue[] | Record<string, SqlValue>;

export interface TransactionRecord {
  /** Monotonic transaction number; the snapshot records the last one it contains. */
  seq: number;
  /** Commit time in ms since the epoch (informational). */
  at: number;
  statements: Array<[sql: string, params: SqlParams | undefined]>;
}

interface EncodedRecord {
  seq: number;
  at: number;
  /**
   * Distinct SQL texts of the transaction (bulk writes repeat the same few statements): the texts
   * themselves, or in a compact record, how compactStatements.ts names them (records of both kinds
   * are read alike).
   */
  sql: CompactSql[];
  ops: Array<[number, unknown] | [number]>;
}

/**
 * Every encoded payload starts with these bytes (JSON keeps key order, and `seq` comes first):
 * the journal scan looks for them to find the next intact record after damage.
 */
export const RECORD_PAYLOAD_PREFIX = '{"seq":';

/**
 * `compact`: statement texts named as compactStatements.ts does (the file journal, written and read
 * by one version at a time). Without it they are written out in full: the PostgreSQL journal,
 * which hosts of different versions may share, and a version before this encoding could not read.
 */
export function encodeRecord(record: TransactionRecord, compact = false): Buffer {
  const sqlIndex = new Map<string, number>();
  const sql: CompactSql[] = [];
  const ops: EncodedRecord['ops'] = [];
  for (const [text, params] of record.statements) {
    let index = sqlIndex.get(text);
    if (index === undefined) {
      index = sql.length;
      sql.push(compact ? compactSql(text) : text);
      sqlIndex.set(text, index);
    }
    ops.push(params === undefined ? [index] : [index, encodeParams(params)]);
  }
  const encoded: EncodedRecord = { seq: record.seq, at: record.at, sql, ops };
  return Buffer.from(JSON.stringify(encoded), 'utf8');
}

export function decodeRecord(payload: Buffer): TransactionRecord {
  decodedRecords++;
  const encoded = JSON.parse(payload.toString('utf8')) as EncodedRecord;
  if (typeof encoded.seq !== 'number' || !Array.isArray(encoded.sql) || !Array.isArray(encoded.ops)) {
    throw new Error('journal record has an unexpected shape');
  }
  const texts = encoded.sql.map(sqlText);
  return {
    seq: encoded.seq,
    at: encoded.at,
    statements: encoded.ops.map(([index, params]) => {
      const text = texts[index];
      if (text === undefined)
        throw new Error(`journal record ${encoded.seq} names unknown statement ${index}`);
      return [text, params === undefined ? undefined : decodeParams(params)];
    }),
  };
}

/** `seq` and `at` as every payload starts (encodeRecord writes them first, in this order). */
const RECORD_HEADER_RE = /^\{"seq":(\d+),"at":(-?\d+),"sql":/;

/** `seq` and `at` of a payload as encodeRecord starts it, read without decoding the rest. */
export function recordHeader(payload: Buffer): { seq: number; at: number } | undefined {
  const header = RECORD_HEADER_RE.exec(payload.toString('latin1', 0, 64));
  return header ? { seq: Number(header[1]), at: Number(header[2]) } : undefined;
}

/**
 * A record whose statements are decoded only if someone reads them: opening a store reads every
 * record of its journal but replays only those after the snapshot, and the journal keeps the ones
 * the snapshot holds too (for `.prev`). A first drift check leaves one record of a few MB there,
 * which every later CLI process decoded for nothing.
 */
export function lazyRecord(payload: Buffer, header: { seq: number; at: number }): TransactionRecord {
  let statements: TransactionRecord['statements'] | undefined;
  return {
    ...header,
    get statements() {
      return (statements ??= decodeRecord(payload).statements);
    },
  };
}

let decodedRecords = 0;
/** How many journal records this process has decoded (for tests: what opening a store costs). */
export function decodedRecordCount(): number {
  return decodedRecords;
}

/** Blobs (embedding vectors) are the only values JSON cannot carry as they are. */
function encodeParams(params: SqlParams): unknown {
  if (Array.isArray(params)) return params.map(encodeValue);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) out[key] = encodeValue(value);
  return out;
}

function encodeValue(value: SqlValue): unknown {
  return value instanceof Uint8Array ? { $b: Buffer.from(value).toString('base64') } : value;
}

function decodeParams(params: unknown): SqlParams {
  if (Array.isArray(params)) return params.map(decodeValue);
  const out: Record<string, SqlValue> = {};
  for (const [key, value] of Object.entries(params as Record<string, unknown>)) out[key] = decodeValue(value);
  return out;
}

function decodeValue(value: unknown): SqlValue {
  if (value !== null && typeof value === 'object') {
    const blob = (value as { $b?: unknown }).$b;
    if (typeof blob !== 'string') throw new Error('journal record holds an unknown value type');
    return new Uint8Array(Buffer.from(blob, 'base64'));
  }
  return value as SqlValue;
}
