import { bundledWorkerScript } from '../process/workerKit';
import type { EmbeddingWorkerScript } from './types';

/**
 * The worker this engine was built with: dist/embeddingWorker.js beside the running bundle, or,
 * under tsx (tests, benchmarks), embeddingWorker.ts beside this file, run through tsx.
 */
export function defaultEmbeddingWorkerScript(): EmbeddingWorkerScript {
  return bundledWorkerScript(__dirname, 'embeddingWorker');
}
