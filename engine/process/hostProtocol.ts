/**
 * The two RPC methods an engine host serves to its clients (client -> host, both requests):
 * `engram/hello` once per connection, and `engram/dispatch` for every engine call, carrying the
 * request id that stays the same when the call is re-sent to another host after a failover.
 * One notification goes the other way (host -> client), only to clients whose greeting asked for
 * it: `engram/activity`, each recall and write the host served, for whichever of its callers.
 */
import { RpcErrorCode, RpcRemoteError } from './rpcMessages';

/** Bumped when hosts and clients of different versions could no longer understand each other. */
export const PROTOCOL_VERSION = 1;

export const HELLO_METHOD = 'engram/hello';
export const DISPATCH_METHOD = 'engram/dispatch';
export const ACTIVITY_METHOD = 'engram/activity';

export interface HelloParams {
  protocol: number;
  client: string;
  /**
   * Send this client `engram/activity` notifications. Optional so that hosts and clients from
   * before it still understand each other: an older host ignores it, an older client never asks.
   */
  activity?: boolean;
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

/** The params of `engram/activity`: the activity is opaque here (the engine's API layer checks it). */
export interface ActivityNotification {
  requestId: string;
  activity: unknown;
}

export function parseHello(value: unknown): HelloParams {
  const v = asRecord(value, HELLO_METHOD);
  if (typeof v.protocol !== 'number' || typeof v.client !== 'string') {
    throw invalidParams(`${HELLO_METHOD} expects {protocol: number, client: string}`);
  }
  return { protocol: v.protocol, client: v.client, activity: v.activity === true };
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

/** Null when the notification is not one (the caller logs and ignores it). */
export function parseActivityNotification(value: unknown): ActivityNotification | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.requestId !== 'string' || typeof v.activity !== 'object' || v.activity === null) return null;
  return { requestId: v.requestId, activity: v.activity };
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
