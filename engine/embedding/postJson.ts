import { EngramError } from '../errors';

export interface PostJsonOptions {
  headers?: Record<string, string>;
  /** Covers the whole exchange: connecting, the response headers and the body. */
  timeoutMs: number;
  /** Aborts the request early, e.g. when the provider is disposed. */
  signal?: AbortSignal;
}

/** How much of an error body to quote: enough for the server's message, not a whole HTML page. */
const QUOTE_CHARS = 300;

/**
 * POSTs JSON and returns the parsed JSON answer. Every failure is an EngramError('UNAVAILABLE')
 * whose message names the endpoint and, for HTTP errors, the status and the server's own message,
 * because "fetch failed" alone does not tell a user which setting to fix. Headers (and so API keys)
 * never appear in messages.
 */
export async function postJson(url: string, body: unknown, options: PostJsonOptions): Promise<unknown> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  let answer: { status: number; statusText: string; text: string };
  const send = async (): Promise<typeof answer> => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...options.headers },
      body: JSON.stringify(body),
      signal,
    });
    return { status: response.status, statusText: response.statusText, text: await response.text() };
  };
  try {
    try {
      answer = await send();
    } catch (error) {
      // A kept-alive connection the server closed just as it was reused fails before any answer:
      // it is sent once more, on a new connection. Embedding and summary requests (its callers)
      // change nothing on the server, so sending one twice is safe.
      if (signal.aborted || !DROPPED.has(causeCode(error) ?? '')) throw error;
      answer = await send();
    }
  } catch (error) {
    if (options.signal?.aborted) {
      throw new EngramError('CLOSED', `POST ${url} was cancelled`, { endpoint: url });
    }
    if (timeout.aborted) {
      throw new EngramError('UNAVAILABLE', `POST ${url} timed out after ${options.timeoutMs} ms`, {
        endpoint: url,
      });
    }
    throw new EngramError('UNAVAILABLE', `POST ${url} failed: ${networkCause(error)}`, { endpoint: url });
  }
  const { status, statusText, text } = answer;
  if (status < 200 || status > 299) {
    throw new EngramError(
      'UNAVAILABLE',
      `POST ${url} returned ${status} ${statusText}: ${serverMessage(text)}`,
      {
        endpoint: url,
        status,
      },
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new EngramError('UNAVAILABLE', `POST ${url} returned a body that is not JSON: ${quote(text)}`, {
      endpoint: url,
      status,
    });
  }
}

/** Failures of a connection dropped by the other side, as undici and the socket report them. */
const DROPPED = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

function causeCode(error: unknown): string | undefined {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

/** fetch() rejects with "fetch failed" and hides the reason (ECONNREFUSED, ENOTFOUND...) in `cause`. */
function networkCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  if (cause && typeof cause.code === 'string') return `${error.message} (${cause.code})`;
  if (cause && typeof cause.message === 'string') return `${error.message} (${cause.message})`;
  return error.message;
}

/** OpenAI answers {error: {message}}, Ollama {error: "..."}; anything else is quoted as is. */
function serverMessage(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    const { error } = parsed;
    if (typeof error === 'string') return quote(error);
    if (
      typeof error === 'object' &&
      error !== null &&
      typeof (error as { message?: unknown }).message === 'string'
    ) {
      return quote((error as { message: string }).message);
    }
  } catch {
    // Not JSON: quote the text.
  }
  return quote(text);
}

function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return '(empty body)';
  return flat.length > QUOTE_CHARS ? `${flat.slice(0, QUOTE_CHARS)}…` : flat;
}
