import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import type { Database, SqlJsStatic } from 'sql.js';
import { EngramError, invalidInput } from '../errors';
import { openDatabase, readFileWithRoom } from './fileCapacity';
import { writeFileAtomic } from './fsync';
import { Journal } from './journal';

// The snapshot file of a durable database (see DurableDatabase): creating an empty one, loading a stored one.

const META_SCHEMA = 'CREATE TABLE IF NOT EXISTS engram_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)';

/**
 * Creates an empty database file (with its identity) and a fresh journal for it. The journal comes
 * first: a database file without its journal is refused on open (its writes would be lost).
 */
export function createEmpty(sql: SqlJsStatic, databasePath: string, journalPath: string): void {
  const dbId = randomBytes(16).toString('hex');
  const db = emptyDatabase(sql, dbId);
  try {
    if (existsSync(journalPath)) unlinkSync(journalPath);
    Journal.create(journalPath, dbId).close();
    writeFileAtomic(databasePath, db.export());
  } finally {
    db.close();
  }
}

/** The database every store starts from: its identity and transaction 0. Its journal rebuilds the rest. */
export function emptyDatabase(sql: SqlJsStatic, dbId: string): Database {
  const db = new sql.Database();
  db.exec(META_SCHEMA);
  db.run("INSERT INTO engram_meta (key, value) VALUES ('db_id', ?), ('journal_seq', '0')", [dbId]);
  return db;
}

/**
 * A database from exported bytes, set up as a loaded snapshot is (a replica's snapshot from
 * PostgreSQL, engine/pgStore: the bytes were checked by PostgreSQL, so no quick_check here).
 */
export function databaseFromBytes(sql: SqlJsStatic, bytes: Uint8Array): Database {
  const db = new sql.Database(bytes);
  try {
    readMeta(db, 'db_id');
    db.exec(IN_MEMORY_PRAGMAS);
    return db;
  } catch (error) {
    db.close();
    throw new EngramError('CORRUPT', `the snapshot is not an Engram database (${firstLine(error)})`);
  }
}

/** SQLite's page cache for an open store (KiB), unless its owner asks for another (setPageCache). */
export const DEFAULT_PAGE_CACHE_KIB = 32 * 1024;

/**
 * The database lives in WASM memory and durability comes from Engram's journal, so SQLite's own
 * rollback journal only has to support ROLLBACK: kept in memory it skips a copy of every page a
 * transaction touches. A larger page cache keeps the indexes a batch of writes touches resident.
 * Measured on batches of 1,000 remembers at 20k memories: 9 % faster together.
 *
 * No other connection ever opens this file (it lives in this thread's sql.js file system), so the
 * connection keeps its lock (exclusive locking mode): in the normal mode every transaction, and
 * every statement outside one, took and released the file's locks and read its header again
 * through sql.js's emulated file system: one-row transactions, each followed by a PRAGMA
 * page_count as a durable write does, took 34-40 us each in bare sql.js, 10-11 us with the lock kept.
 */
const IN_MEMORY_PRAGMAS = `PRAGMA journal_mode = MEMORY; PRAGMA cache_size = -${DEFAULT_PAGE_CACHE_KIB}; PRAGMA locking_mode = EXCLUSIVE;`;

/**
 * Sets SQLite's page cache of an open database. The database file is itself in memory (sql.js's
 * file system), so the cache is a second copy of the pages it holds: a small one trades a copy
 * from that file on a miss for WASM memory, which never shrinks once grown.
 */
export function setPageCache(db: Database, kib: number): void {
  checkPageCache(kib);
  db.exec(`PRAGMA cache_size = -${kib}`);
}

/** Refuses a page cache size that is not a whole number of KiB >= 64 (before a store touches its files). */
export function checkPageCache(kib: number): void {
  if (!Number.isInteger(kib) || kib < 64)
    throw invalidInput(`page cache must be a whole number of KiB >= 64, got ${kib}`);
}

/** What the checksum file of a snapshot holds: crc32 and length of its bytes. */
export function snapshotSum(bytes: Uint8Array): string {
  return `${crc32(bytes)} ${bytes.length}`;
}

/**
 * Records the checksum of the snapshot just put in place. Not synced: a lost or torn checksum
 * file only makes the next open run quick_check, as it did before checksums.
 */
export function writeSnapshotSum(sumPath: string, sum: string): void {
  writeFileSync(sumPath, sum, { mode: 0o600 });
}

function storedSum(sumPath: string): string | undefined {
  try {
    return readFileSync(sumPath, 'latin1');
  } catch {
    return undefined;
  }
}

/**
 * Loads and checks a snapshot; a damaged one is reported (never overwritten), with the way back.
 * `sumPath`: its checksum file. Bytes that match it are the database exactly as Engram exported
 * it, sound then, so quick_check (it reads every page: ~0.2 s of CPU of a CLI process at 6 MB,
 * most of a re-check's database open) runs only on files that changed since or carry no checksum.
 */
export function loadSnapshot(
  sql: SqlJsStatic,
  databasePath: string,
  previousPath: string,
  sumPath?: string,
  /** Place the file in room to grow (fileCapacity.ts): for a store that keeps it, with `ensure`. */
  roomToGrow = false,
): Database {
  // recover can rebuild from the journal alone when there is no previous snapshot.
  const offer = existsSync(previousPath)
    ? `; the previous snapshot ${previousPath} and the journal can restore it: run \`engram recover\``
    : previousPath === ''
      ? ''
      : '; the journal may rebuild it: run `engram recover`';
  let bytes: Buffer;
  try {
    bytes = roomToGrow ? readFileWithRoom(databasePath) : readFileSync(databasePath);
  } catch (error) {
    throw new EngramError('STORE', `cannot read database ${databasePath}: ${String(error)}`);
  }
  if (bytes.length < 100 || bytes.subarray(0, 16).toString('latin1') !== 'SQLite format 3\u0000') {
    throw new EngramError('CORRUPT', `database ${databasePath} is not an SQLite file${offer}`, {
      database: databasePath,
    });
  }
  // Before the database owns the bytes (readFileWithRoom's become its file).
  const checked = sumPath !== undefined && storedSum(sumPath) === snapshotSum(bytes);
  let db: Database | undefined;
  try {
    db = roomToGrow ? openDatabase(sql, bytes) : new sql.Database(bytes);
    if (!checked) {
      quickCheckCount++;
      const check = db.exec('PRAGMA quick_check')[0]?.values[0]?.[0];
      if (check !== 'ok') throw new Error(String(check));
    }
    readMeta(db, 'db_id');
    db.exec(IN_MEMORY_PRAGMAS);
    return db;
  } catch (error) {
    db?.close();
    throw new EngramError('CORRUPT', `database ${databasePath} is damaged (${firstLine(error)})${offer}`, {
      database: databasePath,
    });
  }
}

let quickCheckCount = 0;
/** How many snapshots this process has quick_check'ed on load (for tests). */
export function snapshotQuickChecks(): number {
  return quickCheckCount;
}

export function readMeta(db: Database, key: string): string {
  const value = db.exec('SELECT value FROM engram_meta WHERE key = ?', [key])[0]?.values[0]?.[0];
  if (typeof value !== 'string') throw new Error(`engram_meta has no ${key}`);
  return value;
}

function firstLine(error: unknown): string {
  return String(error instanceof Error ? error.message : error).split('\n')[0] ?? '';
}
