import { EngramError } from '../errors';
import type { Logger } from '../host';
import type { WorkerScript } from '../process/workerKit';
import { OllamaEmbeddingProvider } from './ollamaEmbeddingProvider';
import { OnnxEmbeddingProvider } from './onnxEmbeddingProvider';
import { OpenAiEmbeddingProvider } from './openAiEmbeddingProvider';
import type { EmbeddingConfig, EmbeddingProvider } from './types';
import { UseLiteEmbeddingProvider } from './useLiteEmbeddingProvider';

/**
 * Builds the provider a host's configuration names. Nothing is loaded or contacted until `init()`
 * or the first `embed()`; invalid settings throw EngramError('INVALID_INPUT') here. The local
 * models run in `worker` (the host's `workers.embedding`) unless the config names its own.
 */
export function createEmbeddingProvider(
  config: EmbeddingConfig,
  logger: Logger,
  worker?: WorkerScript,
): EmbeddingProvider {
  switch (config.kind) {
    case 'use-lite':
      return new UseLiteEmbeddingProvider({ ...(worker ? { worker } : {}), ...config, logger });
    case 'onnx':
      return new OnnxEmbeddingProvider({ ...(worker ? { worker } : {}), ...config, logger });
    case 'openai':
      return new OpenAiEmbeddingProvider(config);
    case 'ollama':
      return new OllamaEmbeddingProvider(config);
    default: {
      const kind = (config as { kind?: unknown }).kind;
      throw new EngramError(
        'INVALID_INPUT',
        `embedding kind must be 'use-lite', 'onnx', 'openai' or 'ollama', got '${String(kind)}'`,
      );
    }
  }
}
