import type { Logger } from '../host';
import { defaultWorkerScripts } from '../process/workerScripts';
import type { EmbeddingWorkerScript } from './types';
import { assertUseLiteAssetsExist } from './useLiteAssets';
import type { UseLiteAssets } from './useLiteAssets';
import { WorkerEmbeddingProvider } from './workerEmbeddingProvider';

export interface UseLiteProviderOptions {
  assets: UseLiteAssets;
  logger: Logger;
  /** @default defaultWorkerScripts().embedding (process/workerScripts.ts) */
  worker?: EmbeddingWorkerScript;
  /** Texts per model call; on 2 cores 16-32 is the sweet spot. @default 32 */
  batchSize?: number;
  /** @default 120000 */
  timeoutMs?: number;
}

/**
 * The default provider: Universal Sentence Encoder Lite (512-d), whose weights ship in an npm
 * package, on the TF.js WASM backend. Works offline with nothing to download.
 */
export class UseLiteEmbeddingProvider extends WorkerEmbeddingProvider {
  constructor(options: UseLiteProviderOptions) {
    const { assets } = options;
    super({
      id: 'use-lite-512',
      spec: { backend: 'use-lite', assets },
      worker: options.worker ?? defaultWorkerScripts().embedding,
      logger: options.logger,
      batchSize: options.batchSize,
      timeoutMs: options.timeoutMs,
      checkFiles: () => assertUseLiteAssetsExist(assets),
    });
  }
}
