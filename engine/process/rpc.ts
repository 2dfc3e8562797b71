/**
 * Newline-delimited JSON-RPC 2.0 over a local socket: a server that answers every request (also
 * garbage, with a parse error) and a client whose pending calls all fail with ConnectionLostError
 * when the connection goes, so the caller can fail over and re-send them.
 */
import net from 'node:net';
import { EngramError } from '../errors';
import type { Logger } from '../host';
import { LineReader, LineTooLongError } from './lineReader';
import {
  ConnectionLostError,
  RpcErrorCode,
  decodeError,
  encodeError,
  errorResponse,
  recoverId,
  validateRequest,
  validateResponse,
  asNotification,
} from './rpcMessages';
import type { RpcId, RpcNotification, RpcRequest, RpcResponse } from './rpcMessages';

/** Cap on one message. A line beyond it drops the connection instead of exhausting memory. */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/**
 * Notifications are dropped for a connection with this much unsent output: a client that stops
 * reading must cost the host neither memory nor waiting (answers to its own calls still queue).
 */
export const NOTIFY_BACKLOG_BYTES = 256 * 1024;

export interface RpcContext {
  /** Distinguishes connections in logs; unique within one server. */
  connectionId: number;
}

export type RpcHandler = (method: string, params: unknown, context: RpcContext) => Promise<unknown>;

export interface RpcServerOptions {
  handler: RpcHandler;
  logger: Logger;
  /** @default DEFAULT_MAX_LINE_BYTES */
  maxLineBytes?: number;
  /** After a connection has closed, for whatever reason. */
  onDisconnect?: (connectionId: number) => void;
}

interface Connection {
  id: number;
  socket: net.Socket;
  reader: LineReader;
  /** Notifications dropped because the client was not reading. */
  dropped: number;
}

export class RpcServer {
  private readonly server: net.Server;
  private readonly connections = new Set<Connection>();
  private readonly maxLineBytes: number;
  private nextConnectionId = 1;
  private inFlight = 0;
  private idleWaiters: (() => void)[] = [];
  private draining = false;

  constructor(private readonly options: RpcServerOptions) {
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.server = net.createServer((socket) => this.accept(socket));
  }

  listen(endpoint: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const onError = (error: Error): void => reject(error);
      this.server.once('error', onError);
      this.server.listen(endpoint, () => {
        this.server.off('error', onError);
        this.server.on('error', (error) =>
          this.options.logger.error('rpc server error', { error: error.message }),
        );
        resolve();
      });
    });
  }

  /**
   * Stops accepting connections and requests, lets the requests already running finish and their
   * answers reach the clients, then closes every connection. Requests that arrive meanwhile get no
   * answer: their clients see the connection close and re-send them to the next host.
   */
  async close(graceMs = 2_000): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    await this.whenIdle();
    await Promise.all([...this.connections].map((c) => endGracefully(c.socket, graceMs)));
    await closed;
  }

  /**
   * Stops at once: no more connections, every connection dropped without an answer to what it
   * asked. For a host that could not open its database: its clients re-send to the next host.
   */
  abort(): Promise<void> {
    this.draining = true;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const connection of this.connections) connection.socket.destroy();
    return closed;
  }

  private whenIdle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private accept(socket: net.Socket): void {
    if (this.draining) {
      socket.destroy();
      return;
    }
    const connection: Connection = {
      id: this.nextConnectionId++,
      socket,
      reader: new LineReader(this.maxLineBytes),
      dropped: 0,
    };
    this.connections.add(connection);
    socket.on('data', (chunk: Buffer) => this.receive(connection, chunk));
    socket.on('error', (error) =>
      this.options.logger.debug('rpc connection error', { error: error.message }),
    );
    socket.on('close', () => {
      this.connections.delete(connection);
      this.options.onDisconnect?.(connection.id);
    });
  }

  /**
   * Sends a notification to one connection without waiting: false (and nothing sent) when the
   * connection is gone, the server is draining, or the client has not read what it was sent.
   */
  notify(connectionId: number, method: string, params: unknown): boolean {
    if (this.draining) return false;
    const connection = [...this.connections].find((c) => c.id === connectionId);
    if (!connection || connection.socket.destroyed) return false;
    if (connection.socket.writableLength > NOTIFY_BACKLOG_BYTES) {
      if (connection.dropped++ === 0)
        this.options.logger.warn('a client is not reading: dropping its notifications', { connectionId });
      return false;
    }
    const message: RpcNotification = { jsonrpc: '2.0', method, params };
    connection.socket.write(`${JSON.stringify(message)}\n`);
    return true;
  }

  private receive(connection: Connection, chunk: Buffer): void {
    let lines: string[];
    try {
      lines = connection.reader.push(chunk);
    } catch (error) {
      if (!(error instanceof LineTooLongError)) throw error;
      this.options.logger.warn('rpc message too large, dropping connection', {
        maxLineBytes: this.maxLineBytes,
      });
      connection.socket.destroy();
      return;
    }
    for (const line of lines) this.handleLine(connection, line);
  }

  private handleLine(connection: Connection, line: string): void {
    if (this.draining) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.send(connection, errorResponse(null, RpcErrorCode.parseError, 'Parse error: not valid JSON'));
      return;
    }
    const request = validateRequest(value);
    if (typeof request === 'string') {
      this.send(
        connection,
        errorResponse(recoverId(value), RpcErrorCode.invalidRequest, `Invalid request: ${request}`),
      );
      return;
    }
    void this.run(connection, request);
  }

  private async run(connection: Connection, request: RpcRequest): Promise<void> {
    this.inFlight++;
    try {
      const result = await this.options.handler(request.method, request.params, {
        connectionId: connection.id,
      });
      this.send(connection, { jsonrpc: '2.0', id: request.id, result: result ?? null });
    } catch (error) {
      this.send(connection, { jsonrpc: '2.0', id: request.id, error: encodeError(error) });
    } finally {
      this.inFlight--;
      if (this.inFlight === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    }
  }

  private send(connection: Connection, response: RpcResponse): void {
    if (connection.socket.destroyed) return;
    let line: string;
    try {
      line = JSON.stringify(response);
    } catch (error) {
      // A result that cannot be serialised (a cycle, a BigInt) must still get an answer.
      const message = `result is not serialisable: ${(error as Error).message}`;
      line = JSON.stringify(errorResponse(response.id, RpcErrorCode.internalError, message));
    }
    connection.socket.write(`${line}\n`);
  }
}

function endGracefully(socket: net.Socket, graceMs: number): Promise<void> {
  if (socket.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => socket.destroy(), graceMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.end();
  });
}

export interface RpcClientOptions {
  logger: Logger;
  /** How long to wait for the connection. @default 2000 */
  connectTimeoutMs?: number;
  /** @default DEFAULT_MAX_LINE_BYTES */
  maxLineBytes?: number;
  /** Notifications from the host; without it a notification is treated as a broken host. */
  onNotification?: (method: string, params: unknown) => void;
}

export interface CallOptions {
  /** Reject with EngramError('UNAVAILABLE') if no answer comes in time. @default no limit */
  timeoutMs?: number;
}

interface PendingCall {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout | undefined;
}

export class RpcClient {
  private readonly pending = new Map<RpcId, PendingCall>();
  private readonly closeListeners = new Set<() => void>();
  private readonly reader: LineReader;
  private nextId = 1;
  private lost = false;

  private constructor(
    private readonly socket: net.Socket,
    private readonly options: RpcClientOptions,
  ) {
    this.reader = new LineReader(this.maxLineBytes);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', (error) => options.logger.debug('rpc client socket error', { error: error.message }));
    socket.on('close', () => this.connectionLost('connection to the engine host lost'));
  }

  /** Connects to `endpoint`; rejects with the socket error (ENOENT, ECONNREFUSED, ...) or a timeout. */
  static connect(endpoint: string, options: RpcClientOptions): Promise<RpcClient> {
    const timeoutMs = options.connectTimeoutMs ?? 2_000;
    return new Promise((resolve, reject) => {
      const socket = net.createConnection({ path: endpoint });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new EngramError('UNAVAILABLE', `connecting to ${endpoint} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(new RpcClient(socket, options));
      });
    });
  }

  get isConnected(): boolean {
    return !this.lost;
  }

  call(method: string, params: unknown, options: CallOptions = {}): Promise<unknown> {
    if (this.lost) return Promise.reject(new ConnectionLostError('not connected to the engine host'));
    const id = this.nextId++;
    const line = `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;
    // The host would drop the connection on an oversized line and this call would be re-sent forever.
    if (Buffer.byteLength(line) > this.maxLineBytes) {
      return Promise.reject(
        new EngramError('TOO_LARGE', `request ${method} exceeds ${this.maxLineBytes} bytes`),
      );
    }
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      if (options.timeoutMs !== undefined) {
        const timeoutMs = options.timeoutMs;
        timer = setTimeout(() => {
          this.pending.delete(id);
          reject(new EngramError('UNAVAILABLE', `${method} timed out after ${timeoutMs} ms`, { timeoutMs }));
        }, timeoutMs);
      }
      this.pending.set(id, { resolve, reject, timer });
      this.socket.write(line);
    });
  }

  /** Called once when the connection closes (at once if it already has). Returns an unsubscribe function. */
  onClose(listener: () => void): () => void {
    if (this.lost) {
      // Already closed: still tell the listener, or it would wait forever for a connection to die.
      queueMicrotask(listener);
      return () => {};
    }
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** Closes the connection; pending calls fail with ConnectionLostError. */
  close(): void {
    this.socket.destroy();
    this.connectionLost('connection closed by the client');
  }

  private get maxLineBytes(): number {
    return this.options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  private receive(chunk: Buffer): void {
    let lines: string[];
    try {
      lines = this.reader.push(chunk);
    } catch {
      this.options.logger.warn('rpc answer too large, dropping connection', {
        maxLineBytes: this.maxLineBytes,
      });
      this.socket.destroy();
      return;
    }
    for (const line of lines) {
      let response: RpcResponse | null = null;
      try {
        const value: unknown = JSON.parse(line);
        const notification = this.options.onNotification ? asNotification(value) : null;
        if (notification) {
          this.notified(notification);
          continue;
        }
        response = validateResponse(value);
      } catch {
        // Handled below as an invalid answer.
      }
      if (response === null || response.id === null) {
        // The host answered something we cannot attribute to a call: it is broken, so stop
        // trusting this connection; pending calls fail over.
        this.options.logger.warn('rpc client received an invalid answer, dropping connection', {
          answer: line.slice(0, 200),
        });
        this.socket.destroy();
        return;
      }
      const call = this.pending.get(response.id);
      if (call === undefined) continue; // Answer to a call that already timed out.
      this.pending.delete(response.id);
      clearTimeout(call.timer);
      if ('error' in response) call.reject(decodeError(response.error));
      else call.resolve(response.result);
    }
  }

  private notified(notification: RpcNotification): void {
    try {
      this.options.onNotification?.(notification.method, notification.params);
    } catch (error) {
      // A failing listener is its own problem; the connection and its calls carry on.
      this.options.logger.warn('a notification listener failed', { error: String(error) });
    }
  }

  private connectionLost(reason: string): void {
    if (this.lost) return;
    this.lost = true;
    for (const call of this.pending.values()) {
      clearTimeout(call.timer);
      call.reject(new ConnectionLostError(reason));
    }
    this.pending.clear();
    for (const listener of [...this.closeListeners]) listener();
  }
}
