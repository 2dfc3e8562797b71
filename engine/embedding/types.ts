import type { UseLiteAssets } from './useLiteAssets';
import type { OnnxDtype, OnnxPooling } from './onnxModelFiles';
import type { WorkerScript } from '../process/workerKit';

/**
 * Turns texts into vectors for dense retrieval. Every vector is stored with the provider's `id`, so
 * vectors from different models are never compared with each other.
 */
export interface EmbeddingProvider {
  /**
   * The model id recorded with every vector, e.g. 'use-lite-512', 'onnx:Xenova/bge-small-en-v1.5',
   * 'openai:text-embedding-3-small', 'ollama:nomic-embed-text'.
   */
  readonly id: string;
  /** Vector length; known after `init()` resolves (0 before). */
  readonly dimension: number;
  /** Loads the model or checks the endpoint. Calling it again returns the same promise. */
  init(): Promise<void>;
  /** L2-normalised vectors, one per text, in the same order. Calls `init()` if needed. */
  embed(texts: string[]): Promise<Float32Array[]>;
  /** Stops the worker or connection; pending calls reject with EngramError('CLOSED'). */
  dispose(): Promise<void>;
}

/** How to start the embedding worker thread: dist/embeddingWorker.js, or its source under tsx. */
export type EmbeddingWorkerScript = WorkerScript;

/** Options every provider shares. */
export interface BatchingOptions {
  /** Texts per model call or HTTP request; concurrent `embed()` calls are merged up to this. */
  batchSize?: number;
}

export interface UseLiteConfig extends BatchingOptions {
  kind: 'use-lite';
  assets: UseLiteAssets;
  /** @default defaultWorkerScripts().embedding (process/workerScripts.ts) */
  worker?: EmbeddingWorkerScript;
}

export interface OnnxConfig extends BatchingOptions {
  kind: 'onnx';
  /** A Hugging Face model id laid out under `modelDir`, e.g. 'Xenova/bge-small-en-v1.5'. */
  model: string;
  /** The user's model directory (`env.localModelPath`); models are only ever read from here. */
  modelDir: string;
  /** @default 'fp32' */
  dtype?: OnnxDtype;
  /** BGE models want 'cls'; MiniLM, E5 and GTE want 'mean'. @default 'mean' */
  pooling?: OnnxPooling;
  /** @default defaultWorkerScripts().embedding (process/workerScripts.ts) */
  worker?: EmbeddingWorkerScript;
}

export interface OpenAiConfig extends BatchingOptions {
  kind: 'openai';
  /** The API root that `/embeddings` is appended to, e.g. 'https://api.openai.com/v1'. */
  baseUrl: string;
  model: string;
  /** Sent as a bearer token when present. */
  apiKey?: string;
  /** @default 30000 */
  timeoutMs?: number;
}

export interface OllamaConfig extends BatchingOptions {
  kind: 'ollama';
  /** The server root that `/api/embed` is appended to, e.g. 'http://127.0.0.1:11434'. */
  baseUrl: string;
  model: string;
  /** @default 30000 */
  timeoutMs?: number;
}

/** What a host (settings, CLI flags) chooses; `createEmbeddingProvider` turns it into a provider. */
export type EmbeddingConfig = UseLiteConfig | OnnxConfig | OpenAiConfig | OllamaConfig;
