import { EngramError } from '../errors';
import { asEmbeddingRows } from './embeddingRows';
import { endpointUrl } from './endpointUrl';
import {
  DEFAULT_HTTP_BATCH_SIZE,
  DEFAULT_HTTP_TIMEOUT_MS,
  HttpEmbeddingProvider,
} from './httpEmbeddingProvider';
import { postJson } from './postJson';

export interface OpenAiProviderOptions {
  /** The API root, e.g. 'https://api.openai.com/v1' or a compatible server's '/v1'. */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer <key>` when present (local servers often need none). */
  apiKey?: string;
  /** Texts per request. @default 64 */
  batchSize?: number;
  /** Per request. @default 30000 */
  timeoutMs?: number;
}

/** An OpenAI-compatible `POST {baseUrl}/embeddings` service (OpenAI, Azure-style proxies, LM Studio, vLLM...). */
export class OpenAiEmbeddingProvider extends HttpEmbeddingProvider {
  constructor(options: OpenAiProviderOptions) {
    const endpoint = endpointUrl(options.baseUrl, '/embeddings');
    const timeoutMs = options.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS;
    const headers: Record<string, string> = options.apiKey
      ? { authorization: `Bearer ${options.apiKey}` }
      : {};
    if (options.model.trim() === '') throw new EngramError('INVALID_INPUT', 'model must not be empty');
    super({
      id: `openai:${options.model}`,
      endpoint,
      batchSize: options.batchSize ?? DEFAULT_HTTP_BATCH_SIZE,
      request: async (texts, signal) => {
        const body = { model: options.model, input: texts, encoding_format: 'float' };
        const answer = await postJson(endpoint, body, { headers, timeoutMs, signal });
        return openAiRows(answer, endpoint);
      },
    });
  }
}

/** `{data: [{index, embedding}]}`, put back in input order by `index`. */
function openAiRows(answer: unknown, endpoint: string): number[][] {
  const data = (answer as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) {
    throw new EngramError('UNAVAILABLE', `${endpoint} returned no 'data' array`, { endpoint });
  }
  const items = data as Array<{ index?: unknown; embedding?: unknown }>;
  const ordered = items.every((item) => typeof item.index === 'number')
    ? [...items].sort((a, b) => (a.index as number) - (b.index as number))
    : items;
  return asEmbeddingRows(
    ordered.map((item) => item.embedding),
    endpoint,
    "'data[].embedding'",
  );
}
