import path from 'node:path';
import type { EmbeddingWorkerScript } from './types';

/**
 * The worker this engine was built with: dist/embeddingWorker.js beside the running bundle, or,
 * under tsx (tests, benchmarks), embeddingWorker.ts beside this file, run through tsx.
 */
export function defaultEmbeddingWorkerScript(): EmbeddingWorkerScript {
  if (__filename.endsWith('.ts')) {
    return { file: path.join(__dirname, 'embeddingWorker.ts'), execArgv: ['--require', 'tsx/cjs'] };
  }
  return { file: path.join(__dirname, 'embeddingWorker.js'), execArgv: [] };
}
