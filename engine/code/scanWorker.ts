// First, before a grammar loader can print: see captureWorkerOutput.ts.
import '../process/captureWorkerOutput';
import { parentPort } from 'node:worker_threads';
import { runScan } from './runScan';
import { isScanRequest } from './scanProtocol';
import type { WorkerMessage } from './scanProtocol';
import { ScanSession } from './scanSession';

/**
 * The scan worker thread: parses off the caller's thread and posts results back; the caller owns
 * the database and writes them. Long-lived: it takes one scan request after another and keeps its
 * grammars and resolution cache between them (ScanSession). Cancelled by terminating the thread;
 * the caller then starts a fresh one, so nothing half-done here outlives a cancelled scan.
 */
const port = parentPort;
if (port) {
  const session = new ScanSession();
  const post = (message: WorkerMessage) => port.postMessage(message);
  let previous = Promise.resolve();
  port.on('message', (message: unknown) => {
    if (!isScanRequest(message)) {
      post({ type: 'failed', message: 'scan worker: unexpected request' });
      return;
    }
    previous = previous.then(() =>
      runScan(message.job, post, undefined, session).catch((error: unknown) => {
        post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
      }),
    );
  });
}
