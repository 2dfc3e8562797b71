/**
 * One writer per database. The first process to take the lock becomes the engine host and opens
 * the database; every other process becomes its client over the local endpoint. When the host goes
 * away, its clients race for the lock: one becomes the host, the rest reconnect to it, and calls
 * that were in flight are re-sent with their original request id, so the dispatcher (which
 * deduplicates by request id) applies each of them exactly once.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { EngramError } from '../errors';
import type { Logger } from '../host';
import { endpointFor } from './endpoint';
import { connectToHost } from './hostConnection';
import type { HostConnection } from './hostConnection';
import { startHost } from './hostSession';
import type { HostSession } from './hostSession';
import { acquireLock, lockPathFor } from './lockFile';
import { ConnectionLostError } from './rpcMessages';

/** Who sent a request, under which id. */
export interface DispatchMeta {
  requestId: string;
  client: string;
  /**
   * A call this process makes while it hosts: no other process knows its request id, so none can
   * re-send it, and the dispatcher keeps no copy of its result for a retry (a write still answers
   * from a result a previous host kept, for a call sent there before this process took over).
   */
  local?: boolean;
}

export interface HostDispatcher {
  /** Executes one request. requestId is stable across retries of the same logical call: the dispatcher makes writes idempotent with it (exactly-once). */
  dispatch(method: string, params: unknown, meta: DispatchMeta): Promise<unknown>;
  /** Flushes and closes the database. Called once, before the lock is released. */
  close(): Promise<void>;
  /**
   * Hears what each call amounted to (recalls, writes: JSON the host sends on to its clients as
   * `engram/activity`), with the call's request id. Returns the unsubscribe function.
   */
  onActivity?(listener: HostActivityListener): () => void;
}

/** Activity (opaque JSON to this layer) and the request id of the call that caused it. */
export type HostActivityListener = (activity: unknown, requestId: string) => void;

export interface OpenSharedOptions {
  dbPath: string;
  /** Opens the database as host; only called while this process holds the lock. */
  openHost(): Promise<HostDispatcher>;
  /** Who we are (e.g. 'cli', 'vscode', an MCP client's name). */
  clientName: string;
  logger: Logger;
  /** How long to keep trying to reach or replace a host. @default 15000 */
  connectTimeoutMs?: number;
  /**
   * Every recall and write served by whichever process hosts the database, once each: while this
   * process hosts, from its dispatcher; while a client, from the host's notifications. `own` is
   * true when this process made the call.
   */
  onActivity?: (activity: unknown, own: boolean) => void;
}

export type EngineRole = 'host' | 'client';

export interface SharedEngine {
  readonly role: EngineRole;
  call(method: string, params: unknown): Promise<unknown>;
  /**
   * A call under the caller's own request id (a remote client that may re-send it, such as the
   * team server's HTTP clients): its result is kept for a retry whether this process hosts or not,
   * so a re-sent write is applied once. An id already in flight here is refused (UNAVAILABLE).
   */
  callWithId(requestId: string, method: string, params: unknown): Promise<unknown>;
  /** Host: stop accepting, finish in-flight requests, dispatcher.close(), release lock. Client: disconnect. */
  close(): Promise<void>;
  onRoleChange(listener: (role: EngineRole) => void): () => void;
}

export async function openShared(options: OpenSharedOptions): Promise<SharedEngine> {
  if (options.dbPath.trim() === '') throw new EngramError('INVALID_INPUT', 'dbPath must not be empty');
  const engine = new Engine(options);
  await engine.start();
  return engine;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;

interface PendingCall {
  requestId: string;
  method: string;
  params: unknown;
  /** Made by this process (no result kept while it hosts), not under a remote caller's id. */
  local: boolean;
  /** The connection this call was last sent on; a call is re-sent on every new connection. */
  sentOn: HostConnection | undefined;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Attachment = { role: 'host'; host: HostSession } | { role: 'client'; connection: HostConnection };

class Engine implements SharedEngine {
  private readonly dbPath: string;
  private readonly endpoint: string;
  private readonly timeoutMs: number;
  private readonly pending = new Map<string, PendingCall>();
  /** Request ids of this process's calls not yet answered: activity they caused is its own. */
  private readonly ownRequests = new Set<string>();
  /** Request ids of callWithId calls not yet answered: the same id twice at once is refused. */
  private readonly remoteInFlight = new Set<string>();
  private readonly roleListeners = new Set<(role: EngineRole) => void>();
  private attached: Attachment | undefined;
  private reattaching: Promise<void> | undefined;
  /** Set synchronously by close(), before anything it triggers (such as a lost connection) runs. */
  private closed = false;
  private closing: Promise<void> | undefined;

  constructor(private readonly options: OpenSharedOptions) {
    this.dbPath = path.resolve(options.dbPath);
    this.timeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    try {
      mkdirSync(path.dirname(this.dbPath), { recursive: true });
    } catch (error) {
      throw new EngramError(
        'STORE',
        `cannot create ${path.dirname(this.dbPath)}: ${(error as Error).message}`,
      );
    }
    this.endpoint = endpointFor(this.dbPath);
  }

  get role(): EngineRole {
    // Between a lost connection and the next attachment a former client is still a client.
    return this.attached?.role ?? 'client';
  }

  async start(): Promise<void> {
    await this.adopt(await this.attach());
  }

  call(method: string, params: unknown): Promise<unknown> {
    if (this.closed) return Promise.reject(closedError());
    const requestId = randomUUID();
    if (!this.options.onActivity) return this.callAs(requestId, method, params);
    this.ownRequests.add(requestId);
    const call = this.callAs(requestId, method, params);
    const forget = (): void => void this.ownRequests.delete(requestId);
    call.then(forget, forget);
    return call;
  }

  callWithId(requestId: string, method: string, params: unknown): Promise<unknown> {
    if (this.closed) return Promise.reject(closedError());
    if (this.remoteInFlight.has(requestId))
      return Promise.reject(new EngramError('UNAVAILABLE', `request ${requestId} is still in flight`));
    this.remoteInFlight.add(requestId);
    const call = this.callAs(requestId, method, params, false);
    const forget = (): void => void this.remoteInFlight.delete(requestId);
    call.then(forget, forget);
    return call;
  }

  private callAs(requestId: string, method: string, params: unknown, local = true): Promise<unknown> {
    const attached = this.attached;
    if (attached?.role === 'host') {
      return attached.host.dispatch(method, params, { requestId, client: this.options.clientName, local });
    }
    return new Promise((resolve, reject) => {
      const call: PendingCall = { requestId, method, params, local, sentOn: undefined, resolve, reject };
      this.pending.set(requestId, call);
      if (attached) this.send(call, attached.connection);
      else this.reattach();
    });
  }

  onRoleChange(listener: (role: EngineRole) => void): () => void {
    this.roleListeners.add(listener);
    return () => this.roleListeners.delete(listener);
  }

  close(): Promise<void> {
    if (!this.closing) {
      this.closed = true;
      this.closing = this.shutDown();
    }
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    this.failPending(closedError());
    // `attached` stays as it was, so `role` still tells what this engine was; `closed` stops use.
    const attached = this.attached;
    if (attached?.role === 'host') await attached.host.close();
    if (attached?.role === 'client') attached.connection.close();
    // An attachment in progress notices `closed` and undoes itself.
    await this.reattaching;
  }

  /**
   * Becomes the host, or a client of the current host, retrying with backoff while a host is
   * starting up or a dead host's lock is being taken over, until the deadline.
   */
  private async attach(): Promise<Attachment> {
    const deadline = Date.now() + this.timeoutMs;
    let delay = 20;
    let lastProblem = 'no attempt made';
    for (;;) {
      if (this.closed) throw closedError();
      const attempt = await acquireLock(this.dbPath, this.endpoint);
      if (attempt.acquired) {
        const host = await startHost({
          lock: attempt.lock,
          endpoint: this.endpoint,
          openHost: () => this.options.openHost(),
          logger: this.options.logger,
          onActivity: this.activityListener(),
        });
        return { role: 'host', host };
      }
      if (attempt.holder === null) {
        lastProblem = 'the lock holder is still writing its lock file';
      } else {
        try {
          const connection = await connectToHost(attempt.holder.endpoint, {
            clientName: this.options.clientName,
            logger: this.options.logger,
            timeoutMs: Math.max(100, deadline - Date.now()),
            onActivity: this.activityListener(),
          });
          return { role: 'client', connection };
        } catch (error) {
          if (EngramError.is(error) && error.details?.reason === 'protocol') throw error;
          const { pid, hostname, endpoint } = attempt.holder;
          lastProblem = `lock ${lockPathFor(this.dbPath)} is held by pid ${pid} on ${hostname}, unreachable at ${endpoint}: ${(error as Error).message}`;
        }
      }
      if (Date.now() >= deadline) {
        throw new EngramError(
          'UNAVAILABLE',
          `no engine host for ${this.dbPath} within ${this.timeoutMs} ms (${lastProblem})`,
        );
      }
      this.options.logger.debug('engine host not reachable yet, retrying', { problem: lastProblem, delay });
      await sleep(Math.min(delay * (0.75 + Math.random() / 2), Math.max(0, deadline - Date.now())));
      delay = Math.min(delay * 1.5, 250);
    }
  }

  /** Installs a new attachment and hands it the calls that are waiting. */
  private async adopt(attachment: Attachment): Promise<void> {
    if (this.closed) {
      await this.detach(attachment);
      return;
    }
    const previousRole = this.attached?.role ?? 'client';
    this.attached = attachment;
    if (attachment.role === 'host') {
      const waiting = [...this.pending.values()];
      this.pending.clear();
      for (const call of waiting) {
        const meta = { requestId: call.requestId, client: this.options.clientName, local: call.local };
        void attachment.host.dispatch(call.method, call.params, meta).then(call.resolve, call.reject);
      }
    } else {
      const connection = attachment.connection;
      connection.onClose(() => this.connectionLost(connection));
      for (const call of this.pending.values()) this.send(call, connection);
    }
    if (attachment.role !== previousRole) this.emitRole(attachment.role);
  }

  private send(call: PendingCall, connection: HostConnection): void {
    if (call.sentOn === connection) return;
    call.sentOn = connection;
    connection.dispatch(call.method, call.params, call.requestId).then(
      (result) => this.settle(call, () => call.resolve(result)),
      (error: unknown) => {
        // A lost connection leaves the call waiting: it is re-sent to whichever host comes next.
        if (!ConnectionLostError.is(error)) this.settle(call, () => call.reject(error));
      },
    );
  }

  private settle(call: PendingCall, finish: () => void): void {
    if (this.pending.get(call.requestId) !== call) return;
    this.pending.delete(call.requestId);
    finish();
  }

  private connectionLost(connection: HostConnection): void {
    const attached = this.attached;
    if (attached?.role !== 'client' || attached.connection !== connection || this.closed) return;
    this.attached = undefined;
    this.options.logger.warn('lost the engine host, failing over', { pending: this.pending.size });
    // Fail over at once even with nothing pending: if the host died, someone must take over.
    this.reattach();
  }

  private reattach(): void {
    if (this.reattaching || this.closed) return;
    this.reattaching = (async () => {
      let attachment: Attachment;
      try {
        attachment = await this.attach();
      } catch (error) {
        this.reattaching = undefined;
        if (!this.closed)
          this.options.logger.error('engine host unavailable', { error: (error as Error).message });
        this.failPending(error);
        return;
      }
      // Cleared before adopting: the new connection may close at once, and that must be able to
      // start the next failover.
      this.reattaching = undefined;
      await this.adopt(attachment);
    })();
  }

  private failPending(error: unknown): void {
    const calls = [...this.pending.values()];
    this.pending.clear();
    for (const call of calls) call.reject(error);
  }

  private async detach(attachment: Attachment): Promise<void> {
    if (attachment.role === 'host') await attachment.host.close();
    else attachment.connection.close();
  }

  /** Passes activity on, marked as this process's own or not; undefined when nobody listens. */
  private activityListener(): HostActivityListener | undefined {
    const listener = this.options.onActivity;
    if (!listener) return undefined;
    return (activity, requestId) => {
      if (this.closed) return;
      try {
        listener(activity, this.ownRequests.has(requestId));
      } catch (error) {
        this.options.logger.warn('an activity listener failed', { error: (error as Error).message });
      }
    };
  }

  private emitRole(role: EngineRole): void {
    for (const listener of [...this.roleListeners]) {
      try {
        listener(role);
      } catch (error) {
        this.options.logger.error('role change listener failed', { error: (error as Error).message });
      }
    }
  }
}

function closedError(): EngramError {
  return new EngramError('CLOSED', 'the shared engine has been closed');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
