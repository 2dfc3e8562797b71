import { endpointUrl } from '../embedding/endpointUrl';
import { postJson } from '../embedding/postJson';
import { EngramError, invalidInput } from '../errors';
import { MODEL_SUMMARY_RULE, summaryPrompt } from './summariser';
import type { Summariser, SummaryRequest, WrittenSummary } from './summariser';

/**
 * A summariser over an OpenAI-compatible chat-completions endpoint the user configured (a local
 * server such as Ollama, LM Studio or llama.cpp, or a hosted one). The API key is read from an
 * environment variable (or VS Code's SecretStorage) by the caller and held in memory only: it is
 * never written to the database, the ledger or a log.
 */
export interface SummaryEndpoint {
  /** The API's base URL, e.g. `http://localhost:11434/v1`; `/chat/completions` is appended. */
  url: string;
  model: string;
  apiKey?: string;
}

/**
 * Posts through postJson (engine/embedding/postJson.ts), as the embedding endpoints do: its
 * failures already say which endpoint and why in one line (`POST URL timed out after N ms`,
 * `failed: fetch failed (ECONNREFUSED)`, `returned 500 Internal Server Error: overloaded` with
 * the server's own message, a body that is not JSON), and never quote a header or the key.
 */
export function openAiSummariser(endpoint: SummaryEndpoint): Summariser {
  const target = endpointUrl(endpoint.url, '/chat/completions');
  return {
    provider: 'openai-compatible',
    async summarise(request: SummaryRequest, signal: AbortSignal): Promise<WrittenSummary> {
      const { system, user } = summaryPrompt(request);
      const answer = await postJson(
        target,
        {
          model: endpoint.model,
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: user },
          ],
          temperature: 0,
          // About four characters a token, with room: the limit itself is checked on the text.
          max_tokens: Math.ceil(request.maxChars / 2),
        },
        {
          headers: endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {},
          timeoutMs: MODEL_SUMMARY_RULE.timeoutMs,
          signal,
        },
      );
      return { text: completionText(answer), model: modelOf(answer) ?? endpoint.model };
    },
  };
}

/** The first choice's message, or a one-line error saying the answer was no chat completion. */
function completionText(answer: unknown): string {
  const message = (answer as { choices?: Array<{ message?: { content?: unknown; refusal?: unknown } }> })
    ?.choices?.[0]?.message;
  if (typeof message?.refusal === 'string' && message.refusal !== '')
    throw new Error(`refused: ${message.refusal}`);
  if (typeof message?.content !== 'string') throw new Error('the answer is not a chat completion');
  return message.content;
}

function modelOf(answer: unknown): string | undefined {
  const model = (answer as { model?: unknown } | null)?.model;
  return typeof model === 'string' && model !== '' ? model : undefined;
}

/**
 * The endpoint from the environment, for the CLI and the MCP bridge: `ENGRAM_SUMMARY_URL`,
 * `ENGRAM_SUMMARY_MODEL`, and the key in the variable `ENGRAM_SUMMARY_API_KEY_ENV` names
 * (default `ENGRAM_SUMMARY_API_KEY`), so a key already in the environment (OPENAI_API_KEY) is
 * used where it is. Undefined when no URL is set: nothing leaves the machine unless configured.
 */
export function summaryEndpointFromEnv(env: NodeJS.ProcessEnv): SummaryEndpoint | undefined {
  const url = env['ENGRAM_SUMMARY_URL']?.trim();
  if (!url) return undefined;
  try {
    endpointUrl(url, '/chat/completions');
  } catch (error) {
    // endpointUrl names a `baseUrl`; here the user knows it by its variable.
    if (!EngramError.is(error, 'INVALID_INPUT')) throw error;
    throw invalidInput(`ENGRAM_SUMMARY_URL must be an http(s) URL without a query or fragment; got ${url}`);
  }
  const model = env['ENGRAM_SUMMARY_MODEL']?.trim();
  if (!model) throw invalidInput('ENGRAM_SUMMARY_MODEL must name the model when ENGRAM_SUMMARY_URL is set');
  const apiKey = env[env['ENGRAM_SUMMARY_API_KEY_ENV']?.trim() || 'ENGRAM_SUMMARY_API_KEY']?.trim();
  return { url, model, ...(apiKey ? { apiKey } : {}) };
}
