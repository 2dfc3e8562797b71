import { copyFileSync, linkSync, promises as fsp, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Database } from 'sql.js';
import { fsyncDirectory } from './fsync';
import { snapshotSum, writeSnapshotSum } from './snapshotFile';
import type { StoreFiles } from './storeFiles';

/**
 * Exports the database on this thread into `tempPath`, synced; returns its checksum. (A checkpoint
 * worker writes the same file off the thread, checkpoint.ts.)
 */
export async function exportSnapshot(db: Database, tempPath: string): Promise<string> {
  const bytes = db.export();
  const sum = snapshotSum(bytes);
  const handle = await fsp.open(tempPath, 'w', 0o600);
  try {
    await handle.writeFile(bytes);
    await handle.datasync();
  } finally {
    await handle.close();
  }
  return sum;
}

/** Puts the snapshot written at `files.snapshotTemp` in place of the database file, with its checksum. */
export function installSnapshot(files: StoreFiles, sum: string): void {
  // Keep the snapshot being replaced as `.prev`: with the journal records after it, it can rebuild
  // everything if the new snapshot is ever damaged.
  rmSync(files.previous, { force: true });
  try {
    linkSync(files.database, files.previous);
  } catch {
    copyFileSync(files.database, files.previous); // file systems without hard links
  }
  renameSync(files.snapshotTemp, files.database);
  fsyncDirectory(path.dirname(files.database));
  writeSnapshotSum(files.snapshotSum, sum);
}
