import type http from 'node:http';
import { isMethodName } from '../api/methods';
import type { MethodName } from '../api/methods';
import type { Engram } from '../engram';
import { EngramError } from '../errors';
import type { EngramErrorCode } from '../errors';
import type { Logger } from '../host';
import { MAX_BODY_BYTES, readJson, TOO_LARGE } from '../mcp/httpBody';
import { asCaller, forbidden } from './callerPolicy';
import type { TeamToken } from './teamTokens';

/**
 * The engine protocol over HTTP: `POST /rpc` with `{"id", "method", "params"}`, answered with
 * `{"id", "result"}` or `{"id", "error": {"code", "message"}}` and an HTTP status that says whether
 * a retry can help (see docs/team-server.md). `id` is the caller's request id: a write re-sent with
 * the same id is answered from the first result and applied once, as over the local socket.
 */
export interface RpcRequest {
  id: string;
  method: MethodName;
  params: unknown;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

const STATUS: Record<EngramErrorCode, number> = {
  INVALID_INPUT: 400,
  TOO_LARGE: 413,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  UNAVAILABLE: 503,
  CLOSED: 503,
  CORRUPT: 500,
  STORE: 500,
};

/** The request, or the one-line reason it is not one. */
export function parseRpcRequest(body: unknown): RpcRequest | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return 'the body must be a JSON object {"id", "method", "params"}';
  const { id, method, params } = body as Record<string, unknown>;
  if (typeof id !== 'string' || !REQUEST_ID.test(id))
    return `id must be a request id of 8-128 letters, digits or . _ : -; got ${JSON.stringify(id)?.slice(0, 60)}`;
  if (typeof method !== 'string' || !isMethodName(method))
    return `method must be an engine method; got ${JSON.stringify(method)?.slice(0, 60)}`;
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params)))
    return 'params must be an object';
  return { id, method, params };
}

/** Answers one /rpc request; returns the method (for the metrics) once it is known. */
export async function serveRpc(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  token: TeamToken,
  engram: Engram,
  logger: Logger,
): Promise<string | undefined> {
  if (req.method !== 'POST') {
    answer(res, 405, { error: { code: 'INVALID_INPUT', message: '/rpc takes POST' } });
    return undefined;
  }
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
    res.setHeader('connection', 'close');
    answer(res, 413, { error: { code: 'TOO_LARGE', message: 'the body must be JSON of at most 4 MiB' } });
    return undefined;
  }
  const body = await readJson(req);
  const request =
    body === TOO_LARGE ? 'the body must be JSON of at most 4 MiB' : parseRpcRequest(body ?? null);
  if (typeof request === 'string') {
    answer(res, body === TOO_LARGE ? 413 : 400, { error: { code: 'INVALID_INPUT', message: request } });
    return undefined;
  }
  const { id, method } = request;
  const refusal = forbidden(token, method);
  if (refusal) {
    answer(res, 403, { id, error: { code: refusal.code, message: refusal.message } });
    return method;
  }
  try {
    // Namespaced by user: one user's request id can never fetch another's kept result.
    const result = await engram.callWithId(
      `team:${token.user}:${id}`,
      method,
      asCaller(token, request.params),
    );
    answer(res, 200, { id, result });
  } catch (error) {
    const code = EngramError.is(error) ? error.code : 'STORE';
    if (!EngramError.is(error)) logger.error(`rpc ${method} failed`, { error: String(error) });
    const message = EngramError.is(error) ? error.message.split('\n')[0] : 'internal error';
    answer(res, STATUS[code], { id, error: { code, message } });
  }
  return method;
}

function answer(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
