import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Readable } from 'node:stream';
import { EngramError } from '../errors';
import type { Logger } from '../host';
import { lineSplitter } from '../process/lineReader';
import { isBuildReply, parseWorkerLogLine } from './workerProtocol';
import type { BuildJob } from './workerProtocol';

/** How to start the graph-building worker. */
export interface WorkerScript {
  file: string;
  /** Node flags for the worker, e.g. ['--import', 'tsx'] to run the TypeScript source. */
  execArgv?: string[];
}

/**
 * dist/vectorWorker.js beside the running bundle; under tsx (tests, benchmarks) the .ts source
 * beside this file. On Node 20 a worker's `--import tsx` registers its hooks too late for the
 * worker's own entry file ("Unknown file extension .ts"), so the source runs with tsx's CommonJS
 * hook, `--require tsx/cjs`, which is in place before the entry loads.
 */
export function defaultWorkerScript(): WorkerScript {
  if (__filename.endsWith('.ts')) {
    return { file: path.join(__dirname, 'vectorWorker.ts'), execArgv: ['--require', 'tsx/cjs'] };
  }
  return { file: path.join(__dirname, 'vectorWorker.js'), execArgv: [] };
}

export interface RunningBuild {
  /** The graph bytes; rejects with UNAVAILABLE when the worker fails or is cancelled. */
  readonly bytes: Promise<{ bytes: Uint8Array; millis: number }>;
  readonly cancel: () => Promise<void>;
}

/** Starts one worker for `job`. The job's buffers are transferred: the caller must not reuse them. */
export function buildInWorker(script: WorkerScript, job: BuildJob, logger: Logger): RunningBuild {
  const transfer = [job.labels.buffer, job.vectors.buffer, ...(job.base ? [job.base.buffer] : [])];
  const worker = new Worker(script.file, {
    workerData: job,
    transferList: transfer as ArrayBuffer[],
    execArgv: script.execArgv ?? [],
    // Piped, not inherited: a worker's console would otherwise reach this process's stdout.
    stdout: true,
    stderr: true,
  });
  forwardLines(worker.stdout, logger);
  forwardLines(worker.stderr, logger);
  let cancelled = false;
  const bytes = new Promise<{ bytes: Uint8Array; millis: number }>((resolve, reject) => {
    const fail = (message: string) =>
      reject(new EngramError('UNAVAILABLE', `vector index build failed: ${message}`));
    worker.once('message', (reply: unknown) => {
      if (!isBuildReply(reply)) fail('the worker sent an unexpected message');
      else if (reply.type === 'failed') fail(reply.message);
      else resolve({ bytes: reply.bytes, millis: reply.millis });
      void worker.terminate();
    });
    worker.once('error', (error) => fail(error.message));
    worker.once('exit', (code) => fail(cancelled ? 'cancelled' : `the worker exited with code ${code}`));
  });
  return {
    bytes,
    cancel: async () => {
      cancelled = true;
      await worker.terminate();
    },
  };
}

function forwardLines(stream: Readable, logger: Logger): void {
  const log = lineSplitter((line) => {
    const { level, text } = parseWorkerLogLine(line);
    logger[level](`vector worker: ${text}`);
  });
  stream.setEncoding('utf8');
  stream.on('data', log);
}
