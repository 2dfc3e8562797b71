import type { OnnxDtype, OnnxPooling } from './onnxModelFiles';
import type { UseLiteAssets } from './useLiteAssets';

/**
 * Messages between an embedding provider (caller's thread) and its worker thread. The model is
 * chosen once, through `workerData`; after that the caller sends one batch at a time.
 */

/** The worker's `workerData`: which model to load, from where. */
export type WorkerModelSpec =
  | { backend: 'use-lite'; assets: UseLiteAssets }
  | { backend: 'onnx'; model: string; modelDir: string; dtype: OnnxDtype; pooling: OnnxPooling };

/** Caller -> worker: embed these texts. */
export interface EmbedRequest {
  type: 'embed';
  id: number;
  texts: string[];
}

/** Worker -> caller, once: the model is loaded. */
export interface ReadyReply {
  type: 'ready';
  dimension: number;
  loadMillis: number;
}

/** Worker -> caller: `count` unit vectors laid end to end in `data` (transferred, not copied). */
export interface VectorsReply {
  type: 'vectors';
  id: number;
  count: number;
  data: Float32Array;
}

/** Worker -> caller: loading (id null) or one request failed; the worker stays usable after a request fails. */
export interface FailedReply {
  type: 'failed';
  id: number | null;
  message: string;
}

export type WorkerReply = ReadyReply | VectorsReply | FailedReply;

export function isWorkerReply(value: unknown): value is WorkerReply {
  if (typeof value !== 'object' || value === null) return false;
  const reply = value as Record<string, unknown>;
  switch (reply.type) {
    case 'ready':
      return typeof reply.dimension === 'number' && typeof reply.loadMillis === 'number';
    case 'vectors':
      return (
        typeof reply.id === 'number' && typeof reply.count === 'number' && reply.data instanceof Float32Array
      );
    case 'failed':
      return (typeof reply.id === 'number' || reply.id === null) && typeof reply.message === 'string';
    default:
      return false;
  }
}

export function isEmbedRequest(value: unknown): value is EmbedRequest {
  if (typeof value !== 'object' || value === null) return false;
  const request = value as Record<string, unknown>;
  return (
    request.type === 'embed' &&
    typeof request.id === 'number' &&
    Array.isArray(request.texts) &&
    request.texts.every((text) => typeof text === 'string')
  );
}

/** A loaded model inside the worker. */
export interface EmbeddingBackend {
  readonly dimension: number;
  /** Unit vectors, one per text, in order. */
  embed(texts: string[]): Promise<Float32Array[]>;
}
