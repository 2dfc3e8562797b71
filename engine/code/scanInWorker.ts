import path from 'node:path';
import type { ScanEvent, ScanJob } from './scanProtocol';
import { ScanWorkerHost } from './scanWorkerHost';

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
 * One scan in a worker thread of its own, terminated when the scan ends: for callers without a
 * long-lived host. CodeWorkspace keeps a ScanWorkerHost instead, so rescans reuse the worker.
 */
export async function scanInWorker(
  script: ScanWorkerScript,
  job: ScanJob,
  onEvent: (event: ScanEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  const host = new ScanWorkerHost(script);
  try {
    await host.run(job, onEvent, signal);
  } finally {
    await host.close();
  }
}
