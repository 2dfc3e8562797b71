import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { IdleCollector } from '../process/idleCollector';
import { LineReader } from '../process/lineReader';

/** A frame (one line) longer than this is refused without being parsed. */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;

type RequestId = string | number | null;

/**
 * Newline-delimited JSON-RPC over a stream pair, as the SDK's StdioServerTransport, but every frame
 * that carries a request id gets an answer. The SDK's transport drops a frame that fails its message
 * schema (a request whose `params` is a string, say) and the client waits forever; and it closes the
 * whole connection when one line outgrows its buffer. Here a line that is not JSON gets a -32700
 * error, a request that is not a valid JSON-RPC message a -32600 error naming what was wrong (with
 * its id when it has one), and an oversize line a -32600 error while the connection stays up.
 */
export class LineDelimitedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly lines: LineReader;
  private started = false;
  private closed = false;
  /** Resolves at the output's next 'drain' while writes are backed up. */
  private drained: Promise<void> | undefined;
  /** Frees a large reply's garbage once the client has gone quiet (idleCollector.ts). */
  private readonly collector = new IdleCollector();

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly maxFrameBytes = MAX_FRAME_BYTES,
  ) {
    this.lines = new LineReader(maxFrameBytes, () => this.refuseOversize());
  }

  start(): Promise<void> {
    if (this.started) throw new Error('LineDelimitedTransport already started');
    this.started = true;
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message);
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.collector.dispose();
    this.onclose?.();
    return Promise.resolve();
  }

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  private readonly onData = (chunk: Buffer | string): void => {
    this.lines.read(chunk, (line) => this.handleLine(line));
  };

  private refuseOversize(): void {
    void this.reject(
      null,
      -32600,
      `Invalid Request: a message longer than ${this.maxFrameBytes} bytes was refused`,
    );
  }

  private handleLine(line: string): void {
    if (line.trim() === '') return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (error) {
      void this.reject(
        null,
        -32700,
        `Parse error: ${error instanceof Error ? error.message : String(error)}`,
      );
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(raw);
    if (parsed.success) {
      this.onmessage?.(parsed.data);
      return;
    }
    const id = requestIdOf(raw);
    // A notification (no id) cannot be answered: report it and go on.
    if (id === undefined) {
      this.onerror?.(new Error(`ignored an invalid JSON-RPC notification: ${describe(raw)}`));
      return;
    }
    void this.reject(id, -32600, `Invalid Request: ${describe(raw)}`);
  }

  private reject(id: RequestId, code: number, message: string): Promise<void> {
    // The SDK's message type does not admit a null id, which JSON-RPC requires when it is unknown.
    return this.write({ jsonrpc: '2.0', id, error: { code, message } });
  }

  private write(message: unknown): Promise<void> {
    if (this.closed) return Promise.resolve();
    const frame = `${JSON.stringify(message)}\n`;
    this.collector.noteReply(frame.length);
    if (this.output.write(frame)) return Promise.resolve();
    // Every write while the client is not reading shares one wait: a listener per write passed
    // Node's limit of 10 and printed MaxListenersExceededWarning. A closed output ends it too.
    this.drained ??= new Promise<void>((resolve) => {
      const done = () => {
        this.output.off('drain', done);
        this.output.off('close', done);
        this.drained = undefined;
        resolve();
      };
      this.output.on('drain', done);
      this.output.on('close', done);
    });
    return this.drained;
  }
}

/** The id of something that looks like a request, undefined when it has none (a notification). */
function requestIdOf(raw: unknown): RequestId | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  if (!('id' in raw)) return 'method' in raw ? undefined : null;
  const id = raw.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** What is wrong with a message, in one line. */
function describe(raw: unknown): string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return `a message must be a JSON object, got ${Array.isArray(raw) ? 'an array' : raw === null ? 'null' : typeof raw}`;
  const message = raw as Record<string, unknown>;
  if (message['jsonrpc'] !== '2.0') return '"jsonrpc" must be "2.0"';
  if ('method' in message && typeof message['method'] !== 'string') return '"method" must be a string';
  const params = message['params'];
  if ('params' in message && (typeof params !== 'object' || params === null || Array.isArray(params)))
    return `"params" must be an object, got ${params === null ? 'null' : Array.isArray(params) ? 'an array' : typeof params}`;
  if ('id' in message && typeof message['id'] !== 'string' && typeof message['id'] !== 'number')
    return '"id" must be a string or a number';
  return 'not a JSON-RPC request, notification or response';
}
