import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../host';
import { DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_SESSION_IDLE_MS } from '../mcp/httpBridge';
import { unknownTeam } from './callerPolicy';
import { RateLimiter } from './rateLimiter';
import { serveRpc } from './rpcEndpoint';
import { ServerMetrics } from './serverMetrics';
import { TeamMcp } from './teamMcp';
import type { TeamStores } from './teamStores';
import { DEFAULT_TEAM, teamOf, TokenTable } from './teamTokens';
import type { TeamToken } from './teamTokens';

export interface TeamServerOptions {
  /** @default 0 (any free port; the log line names it) */
  port: number;
  /** The address to listen on. @default '127.0.0.1' (put a TLS reverse proxy in front) */
  bind?: string;
  tokensFile: string;
  /** Requests per second per token, after a burst. @default 20 */
  ratePerSecond?: number;
  /** @default 2 x ratePerSecond */
  burst?: number;
  /** @default 30 min */
  sessionIdleMs?: number;
  /** @default 30 s */
  requestTimeoutMs?: number;
}

export interface RunningTeamServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The team server over one store per team (teamStores.ts): `/healthz` (no token), then a bearer
 * token from the tokens file on everything else, a rate limit per token (429 with Retry-After),
 * and, on the store of the token's team, `/metrics` (Prometheus), `/rpc` (the engine protocol)
 * and `/mcp` (MCP over Streamable HTTP).
 */
export async function startTeamServer(
  stores: TeamStores,
  options: TeamServerOptions,
  logger: Logger,
): Promise<RunningTeamServer> {
  const tokens = new TokenTable(options.tokensFile);
  const rate = options.ratePerSecond ?? 20;
  const limiter = new RateLimiter(rate, options.burst ?? rate * 2);
  const metrics = new ServerMetrics();
  const mcp = new TeamMcp(stores, options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS);
  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;

  async function route(req: http.IncomingMessage, res: http.ServerResponse): Promise<string> {
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (path === '/healthz') {
      json(res, 200, { ok: true, role: (await stores.engine(DEFAULT_TEAM)).role });
      return 'healthz';
    }
    const label =
      path === '/rpc' ? 'rpc' : path === '/mcp' ? 'mcp' : path === '/metrics' ? 'metrics' : 'other';
    const token = authenticate(req);
    if (!token) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      json(res, 401, { error: { code: 'UNAUTHORIZED', message: 'a valid bearer token is required' } });
      return label;
    }
    const badTeam = unknownTeam(token);
    if (badTeam) {
      json(res, 403, { error: { code: badTeam.code, message: badTeam.message } });
      return label;
    }
    const wait = limiter.take(token.id);
    if (wait > 0) {
      res.setHeader('Retry-After', String(wait));
      json(res, 429, { error: { code: 'RATE_LIMITED', message: `too many requests: retry in ${wait} s` } });
      return label;
    }
    if (label === 'metrics') {
      // The memory counts of the caller's own team: another team's are not its business.
      const engram = await stores.engine(teamOf(token));
      const stats = await engram.call('stats', { readOnly: true });
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
      res.end(metrics.render(stats.byStatus));
      return label;
    }
    if (label === 'rpc')
      return (await serveRpc(req, res, token, await stores.engine(teamOf(token)), logger)) ?? label;
    if (label === 'mcp') {
      await mcp.handle(req, res, token);
      return label;
    }
    json(res, 404, {
      error: { code: 'NOT_FOUND', message: 'the endpoints are /rpc, /mcp, /metrics, /healthz' },
    });
    return label;
  }

  function authenticate(req: http.IncomingMessage): TeamToken | undefined {
    const header = req.headers.authorization;
    return header?.startsWith('Bearer ') ? tokens.find(header.slice(7).trim()) : undefined;
  }

  const server = http.createServer(
    { requestTimeout, headersTimeout: Math.min(requestTimeout, 10_000), keepAliveTimeout: 5_000 },
    (req, res) => {
      const started = process.hrtime.bigint();
      void route(req, res)
        .catch((error: unknown) => {
          logger.warn(`team server request failed: ${String(error)}`);
          if (!res.headersSent) json(res, 500, { error: { code: 'STORE', message: 'internal error' } });
          else res.end();
          return 'other';
        })
        .then((label) => {
          const seconds = Number(process.hrtime.bigint() - started) / 1e9;
          metrics.observe(label, res.statusCode, seconds);
        });
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.bind ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    async close() {
      await mcp.closeAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
