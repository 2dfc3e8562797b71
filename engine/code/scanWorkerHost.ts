import { EngramError } from '../errors';
import { WorkerChannel } from '../process/workerKit';
import type { ScanWorkerScript } from './scanInWorker';
import { isWorkerMessage } from './scanProtocol';
import type { ScanEvent, ScanJob, ScanRequest, WorkerMessage } from './scanProtocol';

/** @default 60 s: long enough for a burst of saves, short enough to hand the memory back. */
export const DEFAULT_SCAN_WORKER_IDLE_MS = 60_000;

/**
 * One long-lived scan worker: started on the first scan, kept with its loaded grammars and
 * resolution cache for the next (a fresh thread and grammar load cost ~170 ms of a one-file
 * rescan), terminated after `idleMs` without a scan and by `close`. Between scans the thread is
 * unref'd, so an idle worker never keeps a CLI process alive. One scan at a time: the caller
 * (CodeWorkspace) serialises them.
 */
type ScanChannel = WorkerChannel<ScanRequest, WorkerMessage>;

export class ScanWorkerHost {
  private worker: ScanChannel | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private busy = false;

  constructor(
    private readonly script: ScanWorkerScript,
    private readonly idleMs: number = DEFAULT_SCAN_WORKER_IDLE_MS,
  ) {}

  /** Whether a worker thread is running now (started and not yet idle-terminated or closed). */
  get isRunning(): boolean {
    return this.worker !== undefined && this.worker.ended === undefined;
  }

  /**
   * Runs a scan and hands each event to `onEvent` on this thread, in order. Aborting terminates
   * the worker at once; events already delivered stay delivered (each is complete), later ones
   * are dropped. Rejects with the signal's reason on abort and with UNAVAILABLE when the worker
   * fails; either way the next scan gets a fresh worker.
   */
  run(job: ScanJob, onEvent: (event: ScanEvent) => void, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.busy)
      return Promise.reject(new EngramError('UNAVAILABLE', 'a scan is already running in this worker'));
    this.busy = true;
    clearTimeout(this.idleTimer);
    // A worker that died between scans is not posted to: no answer would come.
    if (this.worker?.ended !== undefined) this.worker = undefined;
    const worker = (this.worker ??= this.start());
    worker.ref();
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const settle = (error?: Error) => {
        if (settled) return;
        settled = true;
        offMessage();
        offEnd();
        signal?.removeEventListener('abort', onAbort);
        this.busy = false;
        if (error === undefined) this.idle(worker);
        else this.discard(worker);
        if (error === undefined) resolve();
        else reject(error);
      };
      const onAbort = () =>
        settle(signal?.reason instanceof Error ? signal.reason : new Error('scan aborted'));
      // Messages that arrive together (the worker outran this thread) are handed over one per
      // turn of the event loop, each after the loop has polled for I/O: every 'files' event is a
      // write transaction, and several in one turn would hold the thread for all of them.
      const queue: WorkerMessage[] = [];
      const handleNext = () => {
        const message = queue.shift();
        if (settled || !message) return;
        if (queue.length > 0) setImmediate(handleNext);
        if (message.type === 'failed')
          return settle(new EngramError('UNAVAILABLE', `scan failed: ${message.message}`));
        try {
          onEvent(message);
        } catch (error) {
          return settle(error instanceof Error ? error : new Error('the scan event handler failed'));
        }
        if (message.type === 'done') settle();
      };
      const offMessage = worker.onReply((message) => {
        queue.push(message);
        if (queue.length === 1) setImmediate(handleNext);
      });
      const offEnd = worker.onEnd((reason) => settle(new EngramError('UNAVAILABLE', reason)));
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.post({ type: 'scan', job });
    });
  }

  /** Terminates the worker; a later scan starts a new one. */
  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  /** The worker's output (grammar loaders' chatter) is dropped; failures come as scan errors. */
  private start(): ScanChannel {
    return WorkerChannel.start<ScanRequest, WorkerMessage>(this.script, {
      name: 'scan worker',
      isReply: isWorkerMessage,
    });
  }

  private idle(worker: ScanChannel): void {
    worker.unref();
    this.idleTimer = setTimeout(() => void this.close(), this.idleMs);
    this.idleTimer.unref();
  }

  /**
   * After an abort or a failure the worker may be mid-scan or hold a broken grammar: it is
   * terminated, never reused.
   */
  private discard(worker: ScanChannel): void {
    if (this.worker === worker) this.worker = undefined;
    void worker.terminate();
  }
}
