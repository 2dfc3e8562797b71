import { EngramError } from '../errors';
import { assertTexts } from './embedInput';
import { EmbeddingQueue } from './embeddingQueue';
import type { EmbeddingQueueStats } from './embeddingQueue';
import type { EmbeddingProvider } from './types';
import { toUnitVector } from './unitVector';

/** Sends one batch to the service; returns its raw rows, one per text, in order. */
export type BatchRequest = (texts: string[], signal: AbortSignal) => Promise<number[][]>;

export interface HttpProviderOptions {
  id: string;
  /** The URL named in errors about the answers' shape. */
  endpoint: string;
  request: BatchRequest;
  batchSize: number;
}

/** Texts per request: far below OpenAI's 2048-input limit, small enough to retry cheaply. */
export const DEFAULT_HTTP_BATCH_SIZE = 64;
/** Per request; generous because a local server may load the model on the first one. */
export const DEFAULT_HTTP_TIMEOUT_MS = 30_000;

/** Sent to learn the dimension; any short text would do. */
const PROBE_TEXT = 'dimension probe';

/**
 * Shared behaviour of the HTTP providers: merged batches, one request at a time (services
 * rate-limit, and a batch already parallelises on their side), the dimension learned from the
 * first answer (the `init()` probe) and checked on every later one, and unit-length vectors even
 * when a server does not normalise.
 */
export class HttpEmbeddingProvider implements EmbeddingProvider {
  readonly id: string;
  private currentDimension = 0;
  private readonly queue: EmbeddingQueue;
  private readonly aborter = new AbortController();
  private initialising: Promise<void> | undefined;
  private disposed = false;

  constructor(private readonly options: HttpProviderOptions) {
    this.id = options.id;
    this.queue = new EmbeddingQueue((texts) => this.runBatch(texts), options.batchSize);
  }

  get dimension(): number {
    return this.currentDimension;
  }

  init(): Promise<void> {
    if (this.disposed) return Promise.reject(this.closedError());
    this.initialising ??= this.probe().catch((error: unknown) => {
      // Not cached: the server may come up, or the key be fixed, before the next call.
      this.initialising = undefined;
      throw error;
    });
    return this.initialising;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    assertTexts(texts);
    await this.init();
    return this.queue.embed(texts);
  }

  stats(): EmbeddingQueueStats {
    return this.queue.stats();
  }

  dispose(): Promise<void> {
    if (!this.disposed) {
      this.disposed = true;
      this.queue.close(this.closedError());
      this.aborter.abort();
    }
    return Promise.resolve();
  }

  private closedError(): EngramError {
    return new EngramError('CLOSED', `the embedding provider ${this.id} has been disposed`);
  }

  private async probe(): Promise<void> {
    const rows = await this.options.request([PROBE_TEXT], this.aborter.signal);
    const first = rows[0];
    if (rows.length !== 1 || first === undefined || first.length === 0) {
      throw this.shapeError(`answered the probe with ${rows.length} rows of ${first?.length ?? 0} values`);
    }
    this.currentDimension = first.length;
  }

  private async runBatch(texts: string[]): Promise<Float32Array[]> {
    // Some APIs (OpenAI) reject empty strings; a space embeds as "nothing" everywhere.
    const rows = await this.options.request(
      texts.map((text) => (text === '' ? ' ' : text)),
      this.aborter.signal,
    );
    if (rows.length !== texts.length)
      throw this.shapeError(`returned ${rows.length} vectors for ${texts.length} texts`);
    return rows.map((row, i) => {
      if (row.length !== this.currentDimension) {
        throw this.shapeError(
          `returned a vector of ${row.length} values at ${i}, expected ${this.currentDimension}`,
        );
      }
      return toUnitVector(row);
    });
  }

  private shapeError(what: string): EngramError {
    return new EngramError('UNAVAILABLE', `${this.options.endpoint} ${what}`, {
      endpoint: this.options.endpoint,
    });
  }
}
