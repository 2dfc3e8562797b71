import type http from 'node:http';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

interface Session {
  transport: StreamableHTTPServerTransport;
  /** When its last request ended (or began, while none has ended). */
  lastSeen: number;
  /** Requests still open on it: an open event stream keeps a session alive. */
  open: number;
}

/**
 * The HTTP bridge's MCP sessions. A client that goes away without DELETE would leave its session
 * (an MCP server and its transport, about 300 KB each) for the life of the process: a session with
 * no open request for `idleMs` is closed, and its id then answers 404 so the client starts anew.
 */
export class HttpSessions {
  private readonly sessions = new Map<string, Session>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly idleMs: number,
    private readonly onExpired: (id: string) => void = () => undefined,
    private readonly clock: () => number = Date.now,
  ) {
    // Often enough that a session outlives its idle time by at most half of it (and a minute).
    this.sweeper = setInterval(() => this.sweep(), Math.min(60_000, Math.max(10, idleMs / 2)));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  add(id: string, transport: StreamableHTTPServerTransport): void {
    this.sessions.set(id, { transport, lastSeen: this.clock(), open: 0 });
  }

  delete(id: string): void {
    this.sessions.delete(id);
  }

  /** The session's transport, with `res` counted as open on it until the response closes. */
  use(id: string, res: http.ServerResponse): StreamableHTTPServerTransport | undefined {
    const session = this.sessions.get(id);
    if (!session) return undefined;
    session.open++;
    session.lastSeen = this.clock();
    res.once('close', () => {
      session.open--;
      session.lastSeen = this.clock();
    });
    return session.transport;
  }

  /** Closes every session idle for longer than `idleMs`. */
  sweep(): void {
    const now = this.clock();
    for (const [id, session] of this.sessions) {
      if (session.open > 0 || now - session.lastSeen <= this.idleMs) continue;
      this.sessions.delete(id);
      this.onExpired(id);
      void session.transport.close().catch(() => undefined);
    }
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.sessions.values()];
    this.sessions.clear();
    for (const session of all) await session.transport.close().catch(() => undefined);
  }
}
