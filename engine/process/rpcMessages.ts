/**
 * The JSON-RPC 2.0 messages the engine host and its clients exchange, one per line, and how errors
 * cross the wire: an EngramError leaves the host as `{code, message, data: {engramCode}}` and is
 * rethrown on the client as an EngramError with the same code and message.
 */
import { EngramError } from '../errors';
import type { EngramErrorCode } from '../errors';

export type RpcId = number | string;

export interface RpcRequest {
  jsonrpc: '2.0';
  id: RpcId;
  method: string;
  params?: unknown;
}

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: { engramCode?: string; details?: Record<string, unknown> };
}

/** Host -> client only, and only to clients that asked for it in their greeting: no id, no answer. */
export interface RpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: unknown;
}

export type RpcResponse =
  | { jsonrpc: '2.0'; id: RpcId; result: unknown }
  | { jsonrpc: '2.0'; id: RpcId | null; error: RpcErrorObject };

/** Standard JSON-RPC codes, plus one server-defined code for engine errors. */
export const RpcErrorCode = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  engineError: -32000,
} as const;

/** Every EngramError code; `satisfies` makes adding a code to errors.ts without adding it here fail. */
const ENGRAM_CODES = {
  INVALID_INPUT: true,
  NOT_FOUND: true,
  TOO_LARGE: true,
  CORRUPT: true,
  STORE: true,
  UNAVAILABLE: true,
  CLOSED: true,
  FORBIDDEN: true,
} as const satisfies Record<EngramErrorCode, true>;

export function isEngramCode(code: unknown): code is EngramErrorCode {
  return typeof code === 'string' && Object.hasOwn(ENGRAM_CODES, code);
}

/** The connection to the host closed before the answer arrived: the call may be re-sent elsewhere. */
export class ConnectionLostError extends Error {
  override readonly name = 'ConnectionLostError';

  static is(error: unknown): error is ConnectionLostError {
    return error instanceof Error && error.name === 'ConnectionLostError';
  }
}

/** A remote failure that is not an EngramError (a bug in the host, an unknown method, ...). */
export class RpcRemoteError extends Error {
  override readonly name = 'RpcRemoteError';

  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export function encodeError(error: unknown): RpcErrorObject {
  if (EngramError.is(error)) {
    const data: RpcErrorObject['data'] = { engramCode: error.code };
    if (error.details !== undefined) data.details = error.details;
    return { code: RpcErrorCode.engineError, message: error.message, data };
  }
  if (error instanceof RpcRemoteError) return { code: error.code, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { code: RpcErrorCode.internalError, message };
}

export function decodeError(error: RpcErrorObject): Error {
  const engramCode = error.data?.engramCode;
  if (isEngramCode(engramCode)) return new EngramError(engramCode, error.message, error.data?.details);
  return new RpcRemoteError(error.code, error.message, error.data);
}

export function errorResponse(id: RpcId | null, code: number, message: string): RpcResponse {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** Checks the shape of an incoming request; returns a reason when it is not one. */
export function validateRequest(value: unknown): RpcRequest | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'expected a JSON-RPC request object (batches are not supported)';
  }
  const v = value as Record<string, unknown>;
  if (v.jsonrpc !== '2.0') return 'expected jsonrpc "2.0"';
  if (typeof v.method !== 'string') return 'expected a string method';
  if (typeof v.id !== 'number' && typeof v.id !== 'string') {
    return 'expected a string or number id (notifications are not supported)';
  }
  return { jsonrpc: '2.0', id: v.id, method: v.method, params: v.params };
}

/** The id of a malformed request, if one can be recovered, so the error reaches the right caller. */
export function recoverId(value: unknown): RpcId | null {
  if (typeof value !== 'object' || value === null) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'number' || typeof id === 'string' ? id : null;
}

/** A notification from the host (a method and no id); null when the value is not one. */
export function asNotification(value: unknown): RpcNotification | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (v.jsonrpc !== '2.0' || typeof v.method !== 'string' || 'id' in v) return null;
  return { jsonrpc: '2.0', method: v.method, params: v.params };
}

/** Checks the shape of an incoming response; null when it is not one. */
export function validateResponse(value: unknown): RpcResponse | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (v.jsonrpc !== '2.0') return null;
  const id = v.id;
  if (typeof id !== 'number' && typeof id !== 'string' && id !== null) return null;
  if ('error' in v) {
    const e = v.error as Record<string, unknown> | null;
    if (typeof e !== 'object' || e === null || typeof e.code !== 'number' || typeof e.message !== 'string') {
      return null;
    }
    return { jsonrpc: '2.0', id, error: v.error as RpcErrorObject };
  }
  if (!('result' in v) || id === null) return null;
  return { jsonrpc: '2.0', id, result: v.result };
}
