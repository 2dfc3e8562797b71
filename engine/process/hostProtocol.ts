/**
 * The two RPC methods an engine host serves to its clients (client -> host, both requests):
 * `engram/hello` once per connection, and `engram/dispatch` for every engine call, carrying the
 * request id that stays the same when the call is re-sent to another host after a failover.
 */
import { RpcErrorCode, RpcRemoteError } from './rpcMessages';

/** Bumped when hosts and clients of different versions could no longer understand each other. */
export const PROTOCOL_VERSION = 1;

export const HELLO_METHOD = 'engram/hello';
export const DISPATCH_METHOD = 'engram/dispatch';

export interface HelloParams {
  protocol: number;
  client: string;
}

export interface HelloResult {
  protocol: number;
  /** The host's pid, for logs. */
  pid: number;
}

export interface DispatchParams {
  method: string;
  params: unknown;
  requestId: string;
  client: string;
}

export function parseHello(value: unknown): HelloParams {
  const v = asRecord(value, HELLO_METHOD);
  if (typeof v.protocol !== 'number' || typeof v.client !== 'string') {
    throw invalidParams(`${HELLO_METHOD} expects {protocol: number, client: string}`);
  }
  return { protocol: v.protocol, client: v.client };
}

export function parseDispatch(value: unknown): DispatchParams {
  const v = asRecord(value, DISPATCH_METHOD);
  if (typeof v.method !== 'string' || typeof v.requestId !== 'string' || typeof v.client !== 'string') {
    throw invalidParams(
      `${DISPATCH_METHOD} expects {method: string, params, requestId: string, client: string}`,
    );
  }
  if (v.requestId === '') throw invalidParams(`${DISPATCH_METHOD} expects a non-empty requestId`);
  return { method: v.method, params: v.params, requestId: v.requestId, client: v.client };
}

export function parseHelloResult(value: unknown): HelloResult {
  const v = asRecord(value, `${HELLO_METHOD} result`);
  if (typeof v.protocol !== 'number' || typeof v.pid !== 'number') {
    throw invalidParams(`${HELLO_METHOD} result must be {protocol: number, pid: number}`);
  }
  return { protocol: v.protocol, pid: v.pid };
}

function asRecord(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null) throw invalidParams(`${what} expects an object`);
  return value as Record<string, unknown>;
}

function invalidParams(message: string): RpcRemoteError {
  return new RpcRemoteError(RpcErrorCode.invalidParams, message);
}
