import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createBridgeServer } from './connectionServer';
import type { BridgeRuntime } from './processRuntime';
import { HttpSessions } from './httpSessions';
import { bearerMatches, newToken, removeTokenFile, writeTokenFile } from './httpToken';
import { reply } from './httpBody';
import { routeToSession } from './sessionRequest';

export const DEFAULT_SESSION_IDLE_MS = 30 * 60 * 1000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** Headers come first and are small: a client slower than this is holding a socket, not sending. */
const MAX_HEADERS_TIMEOUT_MS = 10_000;
/** An idle kept-alive socket is closed after this (Node's own default, set on purpose). */
const KEEP_ALIVE_TIMEOUT_MS = 5_000;

export interface HttpBridgeOptions {
  /** @default 0 (any free port; the token file has the URL) */
  port: number;
  tokenFile: string;
  /** A session without a request for this long is closed. @default 30 min */
  sessionIdleMs?: number;
  /**
   * A request must arrive whole within this and its headers within min(this, 10 s), so a client
   * sending them a byte at a time (slowloris) is cut off. @default 30 s
   */
  requestTimeoutMs?: number;
}

/**
 * Streamable HTTP on 127.0.0.1 only. Every request must carry the Host of this listener (DNS
 * rebinding), no foreign Origin, and the bearer token from the user-only token file; each
 * initialize opens a session with its own MCP server over the shared engine.
 */
export async function serveHttp(runtime: BridgeRuntime, options: HttpBridgeOptions): Promise<void> {
  const token = newToken();
  let allowedHosts: string[] = [];
  const logger = runtime.settings.logger;
  const sessions = new HttpSessions(options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS, (id) =>
    logger.debug(`http session ${id} closed after idling`),
  );
  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;

  const serverOptions: http.ServerOptions = {
    requestTimeout,
    headersTimeout: Math.min(requestTimeout, MAX_HEADERS_TIMEOUT_MS),
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    // How often Node looks for requests past those timeouts (every 30 s by default).
    connectionsCheckingInterval: Math.max(10, Math.min(requestTimeout / 4, 5_000)),
  };
  const httpServer = http.createServer(serverOptions, (req, res) => {
    void handle(req, res).catch((error: unknown) => {
      logger.warn(`http request failed: ${String(error)}`);
      if (!res.headersSent) reply(res, 500, 'internal error');
      else res.end();
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (!allowedHosts.includes(req.headers.host ?? ''))
      return reply(res, 403, 'forbidden: Host is not this local server');
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedHosts.some((host) => origin === `http://${host}`)) {
      return reply(res, 403, 'forbidden: foreign Origin');
    }
    if (!bearerMatches(req.headers.authorization, token)) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      return reply(res, 401, 'unauthorized: a valid bearer token is required');
    }
    if ((req.url ?? '').split('?')[0] !== '/mcp') return reply(res, 404, 'not found: the endpoint is /mcp');
    const routed = await routeToSession(req, res, sessions);
    if (!routed) return;
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableDnsRebindingProtection: true,
      allowedHosts,
      onsessioninitialized: (id): void => sessions.add(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await createBridgeServer(runtime).connect(transport);
    await transport.handleRequest(req, res, routed.initialize);
  }

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port, '127.0.0.1', () => resolve());
  });
  const port = (httpServer.address() as AddressInfo).port;
  allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  const url = `http://127.0.0.1:${port}/mcp`;
  writeTokenFile(options.tokenFile, { url, token, pid: process.pid });
  logger.warn(`engram-mcp: Streamable HTTP at ${url}; bearer token in ${options.tokenFile}`);

  try {
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    });
    await sessions.closeAll();
    await new Promise<void>((resolve) => httpServer.close(() => resolve()));
  } finally {
    // A stale token file would point clients at a dead port and leave a secret lying around.
    removeTokenFile(options.tokenFile, token);
  }
}
