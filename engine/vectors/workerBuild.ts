import { EngramError } from '../errors';
import type { Logger } from '../host';
import { WorkerChannel } from '../process/workerKit';
import type { WorkerScript } from '../process/workerKit';
import { isBuildReply, parseWorkerLogLine } from './workerProtocol';
import type { BuildJob, BuildReply } from './workerProtocol';

export type { WorkerScript } from '../process/workerKit';

export interface RunningBuild {
  /** The graph bytes; rejects with UNAVAILABLE when the worker fails or is cancelled. */
  readonly bytes: Promise<{ bytes: Uint8Array; millis: number }>;
  readonly cancel: () => Promise<void>;
}

/** Starts one worker for `job`. The job's buffers are transferred: the caller must not reuse them. */
export function buildInWorker(script: WorkerScript, job: BuildJob, logger: Logger): RunningBuild {
  const transfer = [job.labels.buffer, job.vectors.buffer, ...(job.base ? [job.base.buffer] : [])];
  const worker = WorkerChannel.start<never, BuildReply>(script, {
    name: 'the vector worker',
    isReply: isBuildReply,
    workerData: job,
    transferList: transfer as ArrayBuffer[],
    // The worker's log lines (workerLogLine) reach the engine logger at their own level.
    onOutputLine: (line) => {
      const { level, text } = parseWorkerLogLine(line);
      logger[level](`vector worker: ${text}`);
    },
  });
  let cancelled = false;
  const fail = (message: string) => new EngramError('UNAVAILABLE', `vector index build failed: ${message}`);
  const bytes = worker.nextReply().then(
    (reply) => {
      void worker.terminate();
      if (reply.type === 'failed') throw fail(reply.message);
      return { bytes: reply.bytes, millis: reply.millis };
    },
    (error: Error) => {
      throw fail(cancelled ? 'cancelled' : error.message);
    },
  );
  return {
    bytes,
    cancel: async () => {
      cancelled = true;
      await worker.terminate();
    },
  };
}
