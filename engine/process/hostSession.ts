/**
 * This process as the engine host of a database: it holds the lock, owns the dispatcher that has
 * the database open, and serves clients on the endpoint. Local calls and client calls go through
 * the same dispatcher and its exactly-once check by request id; only a client call's result is kept
 * for a re-send (a local one has no other sender: DispatchMeta.local).
 */
import { lstatSync, unlinkSync } from 'node:fs';
import { EngramError } from '../errors';
import type { Logger } from '../host';
import { restrictSocketFile } from './endpoint';
import {
  ACTIVITY_METHOD,
  DISPATCH_METHOD,
  HELLO_METHOD,
  PROTOCOL_VERSION,
  parseDispatch,
  parseHello,
} from './hostProtocol';
import type { ActivityNotification, HelloResult } from './hostProtocol';
import type { HeldLock } from './lockFile';
import { RpcServer } from './rpc';
import type { RpcContext } from './rpc';
import { RpcErrorCode, RpcRemoteError } from './rpcMessages';
import type { DispatchMeta, HostActivityListener, HostDispatcher } from './sharedEngine';

export interface HostSession {
  dispatch(method: string, params: unknown, meta: DispatchMeta): Promise<unknown>;
  /** Stop accepting, finish in-flight calls, close the dispatcher, then release the lock. */
  close(): Promise<void>;
}

export interface StartHostOptions {
  lock: HeldLock;
  endpoint: string;
  openHost(): Promise<HostDispatcher>;
  logger: Logger;
  /** This process's own listener for the activity the host serves (its clients get it over the socket). */
  onActivity?: HostActivityListener;
}

/**
 * Starts serving, then opens the database. Listening first means a client that finds the lock
 * held connects at once and its calls wait for the open, instead of retrying a socket that does
 * not exist yet for as long as the open takes (seconds on a loaded machine). If the open fails,
 * every connection is dropped unanswered (its calls go to the next host) and the lock released.
 */
export async function startHost(options: StartHostOptions): Promise<HostSession> {
  const { lock, endpoint, logger } = options;
  const session = new Session(lock, logger, options.onActivity);
  try {
    await session.listen(endpoint);
  } catch (error) {
    await session.abort();
    throw new EngramError('UNAVAILABLE', `cannot serve on ${endpoint}: ${(error as Error).message}`);
  }
  try {
    session.opened(await options.openHost());
  } catch (error) {
    await session.abort();
    throw error;
  }
  logger.info('engine host started', { endpoint, pid: process.pid });
  return session;
}

class Session implements HostSession {
  private readonly server: RpcServer;
  private dispatcher: HostDispatcher | undefined;
  /** Resolved once the database is open; never, if it fails to open (the server is aborted). */
  private readonly ready: Promise<HostDispatcher>;
  private resolveReady: (dispatcher: HostDispatcher) => void = () => undefined;
  private localInFlight = new Set<Promise<unknown>>();
  private closing: Promise<void> | undefined;
  /** Connections whose greeting asked for activity notifications. */
  private readonly activitySubscribers = new Set<number>();
  /** Subscribed to the dispatcher's activity only while someone wants it: it costs a read per recall. */
  private unsubscribeActivity: (() => void) | undefined;

  constructor(
    private readonly lock: HeldLock,
    private readonly logger: Logger,
    private readonly localActivity: HostActivityListener | undefined,
  ) {
    this.server = new RpcServer({
      handler: (method, params, context) => this.serve(method, params, context),
      logger,
      onDisconnect: (connectionId) => {
        this.activitySubscribers.delete(connectionId);
        this.updateActivitySubscription();
      },
    });
    this.ready = new Promise((resolve) => (this.resolveReady = resolve));
  }

  opened(dispatcher: HostDispatcher): void {
    this.dispatcher = dispatcher;
    this.updateActivitySubscription();
    this.resolveReady(dispatcher);
  }

  /** Drops every client unanswered and releases the lock: the database never opened. */
  async abort(): Promise<void> {
    await this.server.abort();
    this.lock.release();
  }

  async listen(endpoint: string): Promise<void> {
    // Only the lock holder may do this: a socket file left by a host that died would make listen
    // fail with EADDRINUSE, and removing a live host's socket would orphan its clients.
    if (process.platform !== 'win32') removeStaleSocket(endpoint);
    await this.server.listen(endpoint);
    restrictSocketFile(endpoint);
  }

  dispatch(method: string, params: unknown, meta: DispatchMeta): Promise<unknown> {
    if (this.closing) return Promise.reject(new EngramError('CLOSED', 'the engine host is shutting down'));
    // Only called once startHost has returned, so the database is open.
    const call = (this.dispatcher as HostDispatcher).dispatch(method, params, meta);
    this.localInFlight.add(call);
    const forget = (): void => void this.localInFlight.delete(call);
    call.then(forget, forget);
    return call;
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async serve(method: string, params: unknown, context: RpcContext): Promise<unknown> {
    if (method === HELLO_METHOD) {
      const hello = parseHello(params);
      this.logger.debug('client connected', { client: hello.client, protocol: hello.protocol });
      if (hello.activity) {
        this.activitySubscribers.add(context.connectionId);
        this.updateActivitySubscription();
      }
      const result: HelloResult = { protocol: PROTOCOL_VERSION, pid: process.pid };
      return result;
    }
    if (method === DISPATCH_METHOD) {
      const call = parseDispatch(params);
      const dispatcher = await this.ready;
      return dispatcher.dispatch(call.method, call.params, {
        requestId: call.requestId,
        client: call.client,
      });
    }
    throw new RpcRemoteError(RpcErrorCode.methodNotFound, `unknown method ${method}`);
  }

  private updateActivitySubscription(): void {
    const wanted = this.localActivity !== undefined || this.activitySubscribers.size > 0;
    if (wanted && !this.unsubscribeActivity && this.dispatcher?.onActivity) {
      this.unsubscribeActivity = this.dispatcher.onActivity((activity, requestId) =>
        this.broadcast(activity, requestId),
      );
    } else if (!wanted && this.unsubscribeActivity) {
      this.unsubscribeActivity();
      this.unsubscribeActivity = undefined;
    }
  }

  /**
   * To this process and every subscribed client, the one that made the call included (a client
   * sees its own calls' activity only this way, so once). A client that is not reading misses
   * notifications rather than making the host queue them (RpcServer.notify drops them).
   */
  private broadcast(activity: unknown, requestId: string): void {
    this.localActivity?.(activity, requestId);
    const notification: ActivityNotification = { requestId, activity };
    for (const connectionId of this.activitySubscribers) {
      this.server.notify(connectionId, ACTIVITY_METHOD, notification);
    }
  }

  private async shutDown(): Promise<void> {
    // Clients see their connection close here and start failing over; they find the lock still
    // held and keep retrying until it is released below, which takes only as long as the flush.
    await this.server.close();
    await Promise.allSettled([...this.localInFlight]);
    try {
      await this.dispatcher?.close();
    } finally {
      // Release last: a new host must not open the database before ours is flushed and closed.
      this.lock.release();
      this.logger.info('engine host stopped', { pid: process.pid });
    }
  }
}

function removeStaleSocket(endpoint: string): void {
  try {
    if (lstatSync(endpoint).isSocket()) unlinkSync(endpoint);
  } catch {
    // Nothing there: the usual case.
  }
}
