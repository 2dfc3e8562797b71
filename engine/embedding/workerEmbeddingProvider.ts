import { EngramError } from '../errors';
import type { Logger } from '../host';
import { assertTexts } from './embedInput';
import { EmbeddingQueue } from './embeddingQueue';
import type { EmbeddingQueueStats } from './embeddingQueue';
import type { EmbeddingProvider, EmbeddingWorkerScript } from './types';
import { WorkerChannel } from '../process/workerKit';
import { isWorkerReply } from './workerProtocol';
import type { EmbedRequest, WorkerModelSpec, WorkerReply } from './workerProtocol';

export interface WorkerProviderOptions {
  id: string;
  spec: WorkerModelSpec;
  worker: EmbeddingWorkerScript;
  logger: Logger;
  /** Texts per model call. @default 32 */
  batchSize?: number;
  /**
   * How long loading, or one batch, may take before the worker is presumed hung, stopped, and its
   * calls rejected. @default 120000
   */
  timeoutMs?: number;
  /** Checks the model files in the caller's thread, so a missing file fails fast and by name. */
  checkFiles(): void;
}

interface InFlight {
  resolve(vectors: Float32Array[]): void;
  reject(error: EngramError): void;
  timer: NodeJS.Timeout;
}

/** The worker currently serving this provider, and what waits on it. */
interface WorkerState {
  worker: WorkerChannel<EmbedRequest, WorkerReply>;
  ready: Promise<void>;
  onReady(): void;
  onFailed(error: EngramError): void;
  loadTimer: NodeJS.Timeout;
  inFlight: Map<number, InFlight>;
}

export const DEFAULT_WORKER_BATCH_SIZE = 32;
const DEFAULT_TIMEOUT_MS = 120_000;

/**
 * An embedding model in a worker thread. Concurrent `embed()` calls are merged into batches and
 * sent one batch at a time. If the worker dies or hangs, every call waiting on it rejects with
 * EngramError('UNAVAILABLE') and the next call starts a fresh worker; `dispose()` stops it for good.
 * The worker is unref'd while idle, so a host that forgets `dispose()` can still exit.
 */
export class WorkerEmbeddingProvider implements EmbeddingProvider {
  readonly id: string;
  private currentDimension = 0;
  /** Milliseconds the last worker took to load its model, as it measured it. */
  loadMillis = 0;
  private readonly queue: EmbeddingQueue;
  private readonly timeoutMs: number;
  private state: WorkerState | undefined;
  private nextRequestId = 1;
  private disposed = false;

  constructor(private readonly options: WorkerProviderOptions) {
    this.id = options.id;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.queue = new EmbeddingQueue(
      (texts) => this.runBatch(texts),
      options.batchSize ?? DEFAULT_WORKER_BATCH_SIZE,
    );
  }

  get dimension(): number {
    return this.currentDimension;
  }

  init(): Promise<void> {
    if (this.disposed) return Promise.reject(this.closedError());
    try {
      this.state ??= this.startWorker();
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return this.state.ready;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    assertTexts(texts);
    await this.init();
    return this.queue.embed(texts);
  }

  stats(): EmbeddingQueueStats {
    return this.queue.stats();
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const error = this.closedError();
    this.queue.close(error);
    const state = this.state;
    if (state) await this.stop(state, error);
  }

  private closedError(): EngramError {
    return new EngramError('CLOSED', `the embedding provider ${this.id} has been disposed`);
  }

  private startWorker(): WorkerState {
    this.options.checkFiles();
    const { logger } = this.options;
    const prefix = `embedding worker ${this.id}`;
    const worker = WorkerChannel.start<EmbedRequest, WorkerReply>(this.options.worker, {
      name: 'the embedding worker',
      isReply: isWorkerReply,
      workerData: this.options.spec,
      onOutputLine: (line, stream) =>
        stream === 'stdout' ? logger.debug(`${prefix}: ${line}`) : logger.warn(`${prefix}: ${line}`),
    });
    let onReady!: () => void;
    let onFailed!: (error: EngramError) => void;
    const ready = new Promise<void>((resolve, reject) => {
      onReady = resolve;
      onFailed = reject;
    });
    const state: WorkerState = {
      worker,
      ready,
      onReady,
      onFailed,
      loadTimer: setTimeout(
        () => this.fail(state, `the model did not load within ${this.timeoutMs} ms`),
        this.timeoutMs,
      ),
      inFlight: new Map(),
    };
    worker.onReply((message) => this.onMessage(state, message));
    worker.onEnd((reason) => this.fail(state, reason));
    return state;
  }

  private onMessage(state: WorkerState, message: WorkerReply): void {
    switch (message.type) {
      case 'ready':
        clearTimeout(state.loadTimer);
        this.currentDimension = message.dimension;
        this.loadMillis = message.loadMillis;
        this.options.logger.debug(`embedding model ${this.id} loaded`, { loadMillis: message.loadMillis });
        state.worker.unref();
        state.onReady();
        return;
      case 'failed':
        if (message.id === null)
          this.fail(state, `the embedding model could not be loaded: ${message.message}`);
        else
          this.settle(
            state,
            message.id,
            new EngramError('UNAVAILABLE', `embedding failed: ${message.message}`),
          );
        return;
      case 'vectors':
        this.settle(state, message.id, this.split(message));
    }
  }

  private split(message: Extract<WorkerReply, { type: 'vectors' }>): Float32Array[] | EngramError {
    const dimension = this.currentDimension;
    if (message.data.length !== message.count * dimension) {
      return new EngramError(
        'UNAVAILABLE',
        `the worker sent ${message.data.length} values for ${message.count} vectors`,
      );
    }
    return Array.from({ length: message.count }, (_, i) =>
      message.data.slice(i * dimension, (i + 1) * dimension),
    );
  }

  private settle(state: WorkerState, id: number, outcome: Float32Array[] | EngramError): void {
    const request = state.inFlight.get(id);
    if (!request) return;
    state.inFlight.delete(id);
    clearTimeout(request.timer);
    if (state.inFlight.size === 0) state.worker.unref();
    if (outcome instanceof EngramError) request.reject(outcome);
    else request.resolve(outcome);
  }

  private async runBatch(texts: string[]): Promise<Float32Array[]> {
    await this.init();
    const state = this.state!;
    const id = this.nextRequestId++;
    return new Promise<Float32Array[]>((resolve, reject) => {
      const timer = setTimeout(
        () => this.fail(state, `a batch of ${texts.length} texts took longer than ${this.timeoutMs} ms`),
        this.timeoutMs,
      );
      state.inFlight.set(id, { resolve, reject, timer });
      state.worker.ref();
      state.worker.post({ type: 'embed', id, texts });
    });
  }

  /** The worker died, hung or misbehaved: reject everything waiting, so that nothing hangs. */
  private fail(state: WorkerState, reason: string): void {
    if (this.state !== state) return;
    const error = new EngramError('UNAVAILABLE', reason, { provider: this.id });
    this.options.logger.warn(`embedding provider ${this.id}: ${reason}`);
    this.queue.failPending(error);
    void this.stop(state, error);
  }

  private async stop(state: WorkerState, error: EngramError): Promise<void> {
    if (this.state === state) this.state = undefined;
    clearTimeout(state.loadTimer);
    state.onFailed(error);
    for (const request of state.inFlight.values()) {
      clearTimeout(request.timer);
      request.reject(error);
    }
    state.inFlight.clear();
    await state.worker.terminate();
  }
}
