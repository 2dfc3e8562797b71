import { closeSync, fstatSync, readSync } from 'node:fs';
import type { Database, SqlJsStatic } from 'sql.js';
import { EngramError } from '../errors';
import { readJournalRecordsAt } from './journalFile';
import { replayRecords } from './replay';

/**
 * Where a worker thread builds its own read-only copy of a durable database as it was at `toSeq`:
 * the snapshot at `fromSeq` and the journal's bytes [from, to), both opened on the host's thread at
 * that moment. Descriptors, not paths: a snapshot or a journal compaction that renames a new file
 * over either path later leaves the opened one as it was. Descriptors are the process's, so a
 * worker thread reads them as they are.
 */
export interface DatabaseCopySource {
  databaseFd: number;
  journalFd: number;
  from: number;
  to: number;
  fromSeq: number;
  toSeq: number;
  /** The database's path, for messages. */
  label: string;
}

/** A source and the descriptors' release (call once the worker has read them). */
export interface DatabaseCopy {
  source: DatabaseCopySource;
  close(): void;
}

export function releaseCopy(source: DatabaseCopySource): void {
  for (const fd of [source.databaseFd, source.journalFd]) {
    try {
      closeSync(fd);
    } catch {
      // Already closed: nothing more to release.
    }
  }
}

/** The copy, built in the worker: the snapshot read whole, the journal range replayed onto it. */
export function loadDatabaseCopy(SQL: SqlJsStatic, source: DatabaseCopySource): Database {
  const bytes = new Uint8Array(fstatSync(source.databaseFd).size);
  for (let done = 0; done < bytes.length;) {
    const n = readSync(source.databaseFd, bytes, done, bytes.length - done, done);
    if (n === 0) throw new EngramError('STORE', `snapshot ${source.label} ended early`);
    done += n;
  }
  const db = new SQL.Database(bytes);
  try {
    db.exec('PRAGMA journal_mode = MEMORY');
    const records = readJournalRecordsAt(source.journalFd, source.from, source.to, source.label);
    const seq = replayRecords(db, records, source.fromSeq, source.label);
    if (seq !== source.toSeq)
      throw new EngramError('STORE', `replayed up to transaction ${seq}, expected ${source.toSeq}`);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
