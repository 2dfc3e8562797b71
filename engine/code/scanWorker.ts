import { parentPort, workerData } from 'node:worker_threads';
import { runScan } from './runScan';
import type { ScanJob, WorkerMessage } from './scanProtocol';

/**
 * The scan worker thread: parses off the caller's thread and posts results back; the caller owns
 * the database and writes them. Cancelled by terminating the thread: nothing here holds state
 * that outlives it.
 */
const port = parentPort;
if (port) {
  const post = (message: WorkerMessage) => port.postMessage(message);
  runScan(workerData as ScanJob, post).catch((error: unknown) => {
    post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  });
}
