import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createBridgeServer } from '../mcp/connectionServer';
import { reply } from '../mcp/httpBody';
import { routeToSession } from '../mcp/sessionRequest';
import { HttpSessions } from '../mcp/httpSessions';
import { forbidden } from './callerPolicy';
import type { TeamStores } from './teamStores';
import { teamOf } from './teamTokens';
import type { TeamToken } from './teamTokens';

/**
 * MCP over Streamable HTTP for the team server: as the local bridge (engine/mcp/httpBridge.ts),
 * but each session belongs to the token that initialized it and serves its team's store, writes
 * are recorded as the token's user, and each tool's engine call is checked against its scopes.
 */
export class TeamMcp {
  private readonly owners = new Map<string, string>();
  private readonly sessions: HttpSessions;

  constructor(
    private readonly stores: TeamStores,
    sessionIdleMs: number,
  ) {
    this.sessions = new HttpSessions(sessionIdleMs, (id) => this.owners.delete(id));
  }

  async handle(req: http.IncomingMessage, res: http.ServerResponse, token: TeamToken): Promise<void> {
    const sessionId = req.headers['mcp-session-id'];
    if (
      typeof sessionId === 'string' &&
      this.owners.has(sessionId) &&
      this.owners.get(sessionId) !== token.id
    )
      return reply(res, 403, 'forbidden: this mcp-session-id belongs to another token');
    const routed = await routeToSession(req, res, this.sessions);
    if (!routed) return;
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id): void => {
        this.owners.set(id, token.id);
        this.sessions.add(id, transport);
      },
    });
    transport.onclose = () => {
      if (!transport.sessionId) return;
      this.sessions.delete(transport.sessionId);
      this.owners.delete(transport.sessionId);
    };
    const caller = {
      agent: token.user,
      authorize: (method: Parameters<typeof forbidden>[1]) => {
        const refusal = forbidden(token, method);
        if (refusal) throw refusal;
      },
    };
    await createBridgeServer(this.stores.runtime(teamOf(token)), caller).connect(transport);
    await transport.handleRequest(req, res, routed.initialize);
  }

  closeAll(): Promise<void> {
    return this.sessions.closeAll();
  }
}
