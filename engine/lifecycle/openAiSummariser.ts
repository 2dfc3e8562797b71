import { invalidInput } from '../errors';
import { summaryPrompt } from './summariser';
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

/** The largest answer body read (a chat completion of a 1,200-character summary is a few KiB). */
const MAX_BODY_CHARS = 1_000_000;

export function openAiSummariser(endpoint: SummaryEndpoint): Summariser {
  const target = `${endpoint.url.replace(/\/+$/, '')}/chat/completions`;
  return {
    provider: 'openai-compatible',
    async summarise(request: SummaryRequest, signal: AbortSignal): Promise<WrittenSummary> {
      const { system, user } = summaryPrompt(request);
      const response = await fetch(target, {
        method: 'POST',
        signal,
        headers: {
          'content-type': 'application/json',
          ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
        },
        body: JSON.stringify({
          model: endpoint.model,
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: user },
          ],
          temperature: 0,
          // About four characters a token, with room: the limit itself is checked on the text.
          max_tokens: Math.ceil(request.maxChars / 2),
        }),
      });
      const body = await response.text();
      if (!response.ok) throw new Error(`HTTP ${response.status} from ${target}`);
      if (body.length > MAX_BODY_CHARS) throw new Error(`an answer of ${body.length} characters`);
      return { text: completionText(body), model: modelOf(body) ?? endpoint.model };
    },
  };
}

/** The first choice's message, or a one-line error saying the answer was no chat completion. */
function completionText(body: string): string {
  const parsed = parseJson(body) as {
    choices?: Array<{ message?: { content?: unknown; refusal?: unknown } }>;
  };
  const message = parsed?.choices?.[0]?.message;
  if (typeof message?.refusal === 'string' && message.refusal !== '')
    throw new Error(`refused: ${message.refusal}`);
  if (typeof message?.content !== 'string') throw new Error('the answer is not a chat completion');
  return message.content;
}

function modelOf(body: string): string | undefined {
  const model = (parseJson(body) as { model?: unknown } | undefined)?.model;
  return typeof model === 'string' && model !== '' ? model : undefined;
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
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
  if (!/^https?:\/\//.test(url)) throw invalidInput(`ENGRAM_SUMMARY_URL must be an http(s) URL; got ${url}`);
  const model = env['ENGRAM_SUMMARY_MODEL']?.trim();
  if (!model) throw invalidInput('ENGRAM_SUMMARY_MODEL must name the model when ENGRAM_SUMMARY_URL is set');
  const apiKey = env[env['ENGRAM_SUMMARY_API_KEY_ENV']?.trim() || 'ENGRAM_SUMMARY_API_KEY']?.trim();
  return { url, model, ...(apiKey ? { apiKey } : {}) };
}
