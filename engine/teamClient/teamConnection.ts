import type http from 'node:http';
import type https from 'node:https';
import { invalidInput } from '../errors';

/** Where the team server is and who we are to it (engram.team.url / --team-url, ENGRAM_TEAM_TOKEN). */
export interface TeamTarget {
  /** The server's base URL, without /rpc. */
  url: string;
  token: string;
}

/**
 * What one call to the team server came to:
 * - `answered`: the server ran it (its result);
 * - `refused`: the server will refuse it again (bad input, not found, no scope...): not worth a retry;
 * - `unreachable`: no answer, or one that says to come back later (429, 503, a proxy's 502/504):
 *   a write stays queued; `retryAfter` is the server's Retry-After in seconds when it sent one.
 */
export type TeamOutcome =
  | { kind: 'answered'; result: unknown }
  | { kind: 'refused'; status: number; code: string; message: string }
  | { kind: 'unreachable'; reason: string; retryAfter?: number };

/** Statuses after which the same request may succeed later. */
const TRANSIENT = new Set([408, 409, 425, 429, 502, 503, 504]);

/** How long to wait for an answer before calling the server unreachable. */
const DEFAULT_TIMEOUT_MS = 15_000;

export function parseTeamUrl(value: string, source: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidInput(`${source} must be an http(s) URL; got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalidInput(`${source} must be an http(s) URL; got "${value}"`);
  return url.href.replace(/\/+$/, '');
}

/** One engine call under `requestId` (re-sending it with the same id is safe: applied once). */
export async function sendToTeam(
  target: TeamTarget,
  requestId: string,
  method: string,
  params: unknown,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<TeamOutcome> {
  const body = JSON.stringify({ id: requestId, method, params });
  const first = await post(target, body, timeoutMs, true);
  // A kept-alive connection the server closed as idle just as this request went out on it (this
  // thread was busy past the server's keep-alive timeout): not the server being away. The same
  // request id again, on a new connection; the server applies a write once whichever arrived.
  if (first !== STALE_CONNECTION) return first;
  const second = await post(target, body, timeoutMs, false);
  return second === STALE_CONNECTION ? { kind: 'unreachable', reason: 'connection reset' } : second;
}

const STALE_CONNECTION = Symbol('stale connection');

/**
 * Node's HTTP and TLS stack, loaded on the first call to a team server rather than with the
 * engine: every one-shot CLI command and MCP bridge loads this module, few talk to a team server,
 * and loading the stack cost each ~6 ms of CPU. `require`, not `import()`: the CLI compiles the
 * engine bundle through vm.Script (bin/codeCache.ts), where Node 20 has no loader for import().
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const requireHttp = () => require('node:http') as typeof http;
const requireHttps = () => require('node:https') as typeof https;
/* eslint-enable @typescript-eslint/no-require-imports */

/** One POST /rpc; `pooled` false: on a connection of its own (no agent). */
function post(
  target: TeamTarget,
  body: string,
  timeoutMs: number,
  pooled: boolean,
): Promise<TeamOutcome | typeof STALE_CONNECTION> {
  const url = new URL(`${target.url}/rpc`);
  const { request } = url.protocol === 'https:' ? requireHttps() : requireHttp();
  return new Promise((resolve) => {
    const req = request(
      url,
      {
        method: 'POST',
        timeout: timeoutMs,
        ...(pooled ? {} : { agent: false }),
        headers: {
          authorization: `Bearer ${target.token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (error) => resolve({ kind: 'unreachable', reason: error.message }));
        res.on('end', () => resolve(outcomeOf(res, Buffer.concat(chunks).toString('utf8'))));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve(
        req.reusedSocket && error.code === 'ECONNRESET'
          ? STALE_CONNECTION
          : { kind: 'unreachable', reason: error.message },
      ),
    );
    req.end(body);
  });
}

function outcomeOf(res: http.IncomingMessage, text: string): TeamOutcome {
  const status = res.statusCode ?? 0;
  let body: { result?: unknown; error?: { code?: unknown; message?: unknown } } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // A proxy's HTML error page: the status says enough.
  }
  if (status === 200) return { kind: 'answered', result: body.result };
  const message = typeof body.error?.message === 'string' ? body.error.message : `HTTP ${status}`;
  if (TRANSIENT.has(status) || status === 0) {
    const retryAfter = Number(res.headers['retry-after']);
    return {
      kind: 'unreachable',
      reason: `${status}: ${message}`,
      ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfter } : {}),
    };
  }
  const code = typeof body.error?.code === 'string' ? body.error.code : `HTTP_${status}`;
  return { kind: 'refused', status, code, message };
}
