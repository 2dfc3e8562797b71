import { EngramError } from '../errors';
import { asEmbeddingRows } from './embeddingRows';
import { endpointUrl } from './endpointUrl';
import {
  DEFAULT_HTTP_BATCH_SIZE,
  DEFAULT_HTTP_TIMEOUT_MS,
  HttpEmbeddingProvider,
} from './httpEmbeddingProvider';
import { postJson } from './postJson';

export interface OllamaProviderOptions {
  /** The server root, e.g. 'http://127.0.0.1:11434'. */
  baseUrl: string;
  /** e.g. 'nomic-embed-text'; it must have been pulled on the server. */
  model: string;
  /** Texts per request. @default 64 */
  batchSize?: number;
  /** Per request; the first one may load the model on the server. @default 30000 */
  timeoutMs?: number;
}

/** An Ollama server's `POST {baseUrl}/api/embed` (the batch API; answers `{embeddings: number[][]}`). */
export class OllamaEmbeddingProvider extends HttpEmbeddingProvider {
  constructor(options: OllamaProviderOptions) {
    const endpoint = endpointUrl(options.baseUrl, '/api/embed');
    const timeoutMs = options.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS;
    if (options.model.trim() === '') throw new EngramError('INVALID_INPUT', 'model must not be empty');
    super({
      id: `ollama:${options.model}`,
      endpoint,
      batchSize: options.batchSize ?? DEFAULT_HTTP_BATCH_SIZE,
      request: async (texts, signal) => {
        const answer = await postJson(
          endpoint,
          { model: options.model, input: texts },
          { timeoutMs, signal },
        );
        return asEmbeddingRows(
          (answer as { embeddings?: unknown } | null)?.embeddings,
          endpoint,
          "'embeddings'",
        );
      },
    });
  }
}
