import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { EngramError } from '../errors';
import { isWorkerMessage } from './scanProtocol';
import type { ScanEvent, ScanJob } from './scanProtocol';

/** How to start the scan worker. */
export interface ScanWorkerScript {
  file: string;
  /** Node flags for the worker, e.g. ['--require', 'tsx/cjs'] to run the TypeScript source. */
  execArgv?: string[];
}

/**
 * dist/scanWorker.js beside the running bundle; under tsx (tests) the .ts source beside this
 * file, loaded with tsx's CommonJS hook (on Node 20 `--import tsx` registers too late for a
 * worker's entry file).
 */
export function defaultScanWorkerScript(): ScanWorkerScript {
  if (__filename.endsWith('.ts')) {
    return { file: path.join(__dirname, 'scanWorker.ts'), execArgv: ['--require', 'tsx/cjs'] };
  }
  return { file: path.join(__dirname, 'scanWorker.js'), execArgv: [] };
}

/**
 * Runs a scan in a worker thread and hands each event to `onEvent` on this thread, in order.
 * Aborting terminates the worker at once; events already delivered stay delivered (each is
 * complete), later ones are dropped. Rejects with the signal's reason on abort and with
 * UNAVAILABLE when the worker fails.
 */
export function scanInWorker(
  script: ScanWorkerScript,
  job: ScanJob,
  onEvent: (event: ScanEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  signal?.throwIfAborted();
  const worker = new Worker(script.file, {
    workerData: job,
    execArgv: script.execArgv ?? [],
    // The engine never writes to stdout (the MCP channel): keep the worker's console away from it.
    stdout: true,
    stderr: true,
  });
  worker.stdout.resume();
  worker.stderr.resume();
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      if (error === undefined) resolve();
      else reject(error);
    };
    const onAbort = () => settle(signal?.reason instanceof Error ? signal.reason : new Error('scan aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: unknown) => {
      if (settled) return;
      if (!isWorkerMessage(message))
        return settle(new EngramError('UNAVAILABLE', 'scan worker: unexpected message'));
      if (message.type === 'failed')
        return settle(new EngramError('UNAVAILABLE', `scan failed: ${message.message}`));
      try {
        onEvent(message);
      } catch (error) {
        return settle(error instanceof Error ? error : new Error('the scan event handler failed'));
      }
      if (message.type === 'done') settle();
    });
    worker.once('error', (error) => settle(new EngramError('UNAVAILABLE', `scan worker: ${error.message}`)));
    worker.once('exit', (code) =>
      settle(new EngramError('UNAVAILABLE', `scan worker exited with code ${code}`)),
    );
  });
}
