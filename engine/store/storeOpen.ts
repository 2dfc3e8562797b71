import { existsSync, promises as fsp, rmSync } from 'node:fs';
import path from 'node:path';
import type { Database } from 'sql.js';
import { EngramError } from '../errors';
import type { DurableDatabaseOptions } from './durableOptions';
import { databaseFileBytes, fileCapacity } from './fileCapacity';
import { Journal } from './journal';
import { replayRecords } from './replay';
import { checkPageCache, createEmpty, loadSnapshot, readMeta, setPageCache } from './snapshotFile';
import { storeFiles } from './storeFiles';

/** A store's files opened: its database with the journal replayed onto it, not yet migrated. */
export interface LoadedStore {
  db: Database;
  journal: Journal;
  dbId: string;
  /** The transaction the snapshot holds everything up to. */
  snapshotSeq: number;
  /** The last transaction, after the replay. */
  seq: number;
}

/**
 * Loads the snapshot at `options.path` (an empty database on the first open) and replays the
 * journal records it does not contain. A damaged or incomplete set of files is never modified:
 * this throws `CORRUPT`, naming the file and what `engram recover` would do. On failure, whatever
 * it opened is closed again.
 */
export async function loadStore(options: DurableDatabaseOptions): Promise<LoadedStore> {
  if (options.pageCacheKib !== undefined) checkPageCache(options.pageCacheKib);
  const files = storeFiles(options.path);
  await fsp.mkdir(path.dirname(options.path), { recursive: true });
  for (const leftover of [files.snapshotTemp, files.journalTemp]) rmSync(leftover, { force: true });

  if (!existsSync(files.database)) {
    // A journal with no record beside no snapshot at all: a first open that crashed before it
    // wrote the database file (the journal is created first). Nothing was ever written.
    if (!existsSync(files.previous) && Journal.isEmptyFile(files.journal)) rmSync(files.journal);
    if (existsSync(files.journal) || existsSync(files.previous)) {
      throw new EngramError(
        'CORRUPT',
        `database ${files.database} is missing but its journal or previous snapshot exists; ` +
          `run \`engram recover\` to rebuild it from them`,
        { database: files.database },
      );
    }
    createEmpty(options.sql, files.database, files.journal);
  }

  const db = loadSnapshot(options.sql, files.database, files.previous, files.snapshotSum, true);
  try {
    if (options.pageCacheKib !== undefined) setPageCache(db, options.pageCacheKib);
    options.configure?.(db);
    const dbId = readMeta(db, 'db_id');
    const snapshotSeq = Number(readMeta(db, 'journal_seq'));
    // Every snapshot has a journal beside it (created with the database): without it, the writes
    // after the snapshot would vanish without a word.
    if (!existsSync(files.journal)) {
      throw new EngramError(
        'CORRUPT',
        `journal ${files.journal} is missing: the writes after transaction ${snapshotSeq} of ${files.database} ` +
          `are in it; restore it, or run \`engram recover --accept-loss\` to go on without them`,
        { journal: files.journal },
      );
    }
    const opened = Journal.open(files.journal, dbId, options.logger, snapshotSeq);
    try {
      const capacity = fileCapacity(db);
      const seq = replayRecords(db, opened.records, snapshotSeq, files.journal, () =>
        capacity?.ensure(databaseFileBytes(db)),
      );
      return { db, journal: opened.journal, dbId, snapshotSeq, seq };
    } catch (error) {
      opened.journal.close();
      throw error;
    }
  } catch (error) {
    db.close();
    throw error;
  }
}
