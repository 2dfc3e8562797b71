/**
 * The one way the engine runs a worker thread (scan, embedding, vector build, checkpoint): start it
 * from a script the caller passes in, exchange typed messages, and hear about its end exactly once,
 * as a one-line reason. Each worker's protocol (what it is asked, what it answers) stays with the
 * worker; this file owns what they all shared and each got slightly differently: stdout kept off
 * the MCP channel, 'error' / 'messageerror' / unexpected 'exit' / a malformed message turned into
 * one failure, and ref / unref for idle workers.
 */
import { Worker } from 'node:worker_threads';
import type { ResourceLimits, Transferable } from 'node:worker_threads';
import { EngramError } from '../errors';
import { lineSplitter } from './lineReader';

/** How to start a worker: its script file and the Node flags it needs (see workerScripts.ts). */
export interface WorkerScript {
  /** dist/<name>.js beside the bundle, or the .ts source under tsx. */
  file: string;
  /** Node flags for the worker, e.g. ['--require', 'tsx/cjs'] to run the TypeScript source. @default [] */
  execArgv?: string[];
}

/**
 * Worker -> caller: text the worker wrote to its stdout or stderr, sent by captureWorkerOutput.ts.
 * Output travels as messages, not through `new Worker(..., { stdout: true })` streams: a piped
 * stream that is being read keeps the caller's process alive even after `worker.unref()`.
 */
export interface WorkerOutputMessage {
  workerOutput: 'stdout' | 'stderr';
  text: string;
}

function isWorkerOutput(value: unknown): value is WorkerOutputMessage {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Partial<WorkerOutputMessage>;
  return (
    (message.workerOutput === 'stdout' || message.workerOutput === 'stderr') &&
    typeof message.text === 'string'
  );
}

export interface StartWorkerOptions<Reply> {
  /** Names the worker in failure reasons: "<name> exited with code 1". */
  name: string;
  /** Checks each message the worker sends; any other message ends the worker as a failure. */
  isReply(message: unknown): message is Reply;
  workerData?: unknown;
  /** Buffers in `workerData` handed over, not copied: the caller must not use them afterwards. */
  transferList?: readonly Transferable[];
  resourceLimits?: ResourceLimits;
  /** Each whole line the worker printed (with captureWorkerOutput.ts). @default dropped */
  onOutputLine?(line: string, stream: 'stdout' | 'stderr'): void;
}

/**
 * One running worker. It ends once, for one reason, and every `onEnd` listener hears it: a crash
 * (an uncaught exception in the worker), an exit the caller did not ask for, a message that could
 * not be read or does not match the protocol, or `terminate()`. A malformed message terminates the
 * worker: a peer that breaks the protocol once cannot be trusted with the next request.
 */
export class WorkerChannel<Request, Reply> {
  private readonly replyListeners = new Set<(reply: Reply) => void>();
  private readonly endListeners = new Set<(reason: string) => void>();
  private endReason: string | undefined;

  private constructor(
    private readonly worker: Worker,
    private readonly options: StartWorkerOptions<Reply>,
  ) {
    const { name } = options;
    const output = {
      stdout: lineSplitter((line) => options.onOutputLine?.(line, 'stdout')),
      stderr: lineSplitter((line) => options.onOutputLine?.(line, 'stderr')),
    };
    worker.on('message', (message: unknown) => {
      if (isWorkerOutput(message)) output[message.workerOutput](message.text);
      else if (!options.isReply(message)) this.end(`${name} sent an unexpected message`);
      else if (this.endReason === undefined)
        for (const listener of [...this.replyListeners]) listener(message);
    });
    worker.on('error', (error) => this.end(`${name} crashed: ${firstLine(error.message)}`));
    worker.on('messageerror', (error) =>
      this.end(`${name} sent a message that could not be read: ${firstLine(error.message)}`),
    );
    worker.on('exit', (code) => this.end(`${name} exited with code ${code}`));
  }

  /**
   * Starts `script`. Its stdout and stderr are piped and never read: the engine never writes to
   * this process's stdout (the MCP channel), and an unread pipe does not keep the process alive.
   * A worker that imports captureWorkerOutput.ts first sends its output as messages instead.
   */
  static start<Request, Reply>(
    script: WorkerScript,
    options: StartWorkerOptions<Reply>,
  ): WorkerChannel<Request, Reply> {
    const worker = new Worker(script.file, {
      execArgv: script.execArgv ?? [],
      stdout: true,
      stderr: true,
      ...(options.workerData !== undefined ? { workerData: options.workerData } : {}),
      ...(options.transferList ? { transferList: [...options.transferList] } : {}),
      ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}),
    });
    return new WorkerChannel<Request, Reply>(worker, options);
  }

  /** Why the worker ended, or undefined while it runs. */
  get ended(): string | undefined {
    return this.endReason;
  }

  post(request: Request, transfer: readonly Transferable[] = []): void {
    if (this.endReason !== undefined) return;
    this.worker.postMessage(request, [...transfer]);
  }

  /** Hears every valid reply until the returned function is called. */
  onReply(listener: (reply: Reply) => void): () => void {
    this.replyListeners.add(listener);
    return () => this.replyListeners.delete(listener);
  }

  /** Hears the end once (at once if it has already ended) unless removed first. */
  onEnd(listener: (reason: string) => void): () => void {
    if (this.endReason !== undefined) {
      listener(this.endReason);
      return () => undefined;
    }
    this.endListeners.add(listener);
    return () => this.endListeners.delete(listener);
  }

  /**
   * The worker's next reply (after posting `request`, if given); rejects with
   * EngramError('UNAVAILABLE', reason) when the worker ends first.
   */
  nextReply(request?: Request, transfer: readonly Transferable[] = []): Promise<Reply> {
    if (this.endReason !== undefined) return Promise.reject(new EngramError('UNAVAILABLE', this.endReason));
    return new Promise<Reply>((resolve, reject) => {
      const stop = () => {
        offReply();
        offEnd();
      };
      const offReply = this.onReply((reply) => {
        stop();
        resolve(reply);
      });
      const offEnd = this.onEnd((reason) => {
        stop();
        reject(new EngramError('UNAVAILABLE', reason));
      });
      if (request !== undefined) this.post(request, transfer);
    });
  }

  /** Lets this process exit while the worker waits (an idle worker must not keep a CLI alive). */
  unref(): void {
    this.worker.unref();
  }

  ref(): void {
    this.worker.ref();
  }

  /** Stops the worker; `onEnd` listeners hear "<name> was terminated". */
  async terminate(): Promise<void> {
    this.end(`${this.options.name} was terminated`, false);
    await this.worker.terminate();
  }

  private end(reason: string, terminate = true): void {
    if (this.endReason !== undefined) return;
    this.endReason = reason;
    this.replyListeners.clear();
    const listeners = [...this.endListeners];
    this.endListeners.clear();
    for (const listener of listeners) listener(reason);
    if (terminate) void this.worker.terminate();
  }
}

/** Worker error messages can carry a stack or a code frame: a failure reason is one line. */
function firstLine(text: string): string {
  const line = text.split('\n', 1)[0]?.trim();
  return line ? line : 'no message';
}
