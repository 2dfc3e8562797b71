/**
 * Worker thread entry: brings the store's snapshot file up to a seq by replaying journal records
 * onto a copy of its own, and writes the result to the snapshot temp file, synced. The host thread
 * only renames it into place: the whole-database export that used to block it (about a second at
 * 100,000 memories) happens here. See checkpoint.ts.
 */
// First, before anything can print: see captureWorkerOutput.ts.
import '../process/captureWorkerOutput';
import { closeSync, fdatasyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import type { CheckpointJob, CheckpointReply } from './checkpoint';
import { readJournalRecords } from './journalFile';
import { replayRecords } from './replay';
import { snapshotSum } from './snapshotFile';
import { loadSqlJs } from './sqlite';

async function checkpoint(job: CheckpointJob): Promise<CheckpointReply> {
  const started = performance.now();
  const SQL = await loadSqlJs(job.sqlWasmPath);
  const db = new SQL.Database(readFileSync(job.databasePath));
  try {
    db.exec('PRAGMA journal_mode = MEMORY');
    const records = readJournalRecords(job.journalPath, job.from, job.to);
    const seq = replayRecords(db, records, job.fromSeq, job.journalPath);
    if (seq !== job.toSeq) throw new Error(`replayed up to transaction ${seq}, expected ${job.toSeq}`);
    const bytes = db.export();
    const fd = openSync(job.tempPath, 'w', 0o600);
    try {
      for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done);
      fdatasyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return {
      ok: true,
      bytes: bytes.length,
      sum: snapshotSum(bytes),
      millis: performance.now() - started,
      heapMb: Math.round(getHeapStatistics().total_heap_size / 1024 / 102.4) / 10,
    };
  } finally {
    db.close();
  }
}

parentPort?.once('message', (job: CheckpointJob) => {
  checkpoint(job).then(
    (reply) => parentPort?.postMessage(reply),
    (error: unknown) =>
      parentPort?.postMessage({
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      } satisfies CheckpointReply),
  );
});
