import type { WorkerScript } from '../process/workerKit';
import type { ScanEvent, ScanJob } from './scanProtocol';
import { ScanWorkerHost } from './scanWorkerHost';

/** How to start the scan worker. */
export type ScanWorkerScript = WorkerScript;

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
