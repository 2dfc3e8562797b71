import type http from 'node:http';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { MAX_BODY_BYTES, readJson, reply, tooLarge, TOO_LARGE } from './httpBody';
import type { HttpSessions } from './httpSessions';

/**
 * One request to an MCP endpoint over Streamable HTTP, after authentication: handed to its
 * session, or refused with one line. Resolves to the body of an initialize request, which the
 * caller opens a new session for; to undefined when the request was answered here.
 */
export async function routeToSession(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  sessions: HttpSessions,
): Promise<{ initialize: unknown } | undefined> {
  const sessionId = req.headers['mcp-session-id'];
  const existing = typeof sessionId === 'string' ? sessions.use(sessionId, res) : undefined;
  const refuse = (status: number, message: string) => void reply(res, status, message);
  // An id we do not know (expired, deleted, or from before a restart) is a 404: the client
  // then initializes a new session, as the Streamable HTTP transport specifies.
  if (sessionId !== undefined && !existing) return refuse(404, 'unknown mcp-session-id: initialize again');
  if (req.method !== 'POST') {
    if (!existing) return refuse(400, 'missing mcp-session-id');
    return void (await existing.handleRequest(req, res));
  }
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) return void tooLarge(res);
  const body = await readJson(req);
  if (body === TOO_LARGE) return void tooLarge(res);
  if (body === undefined) return refuse(400, 'the body must be JSON');
  if (existing) return void (await existing.handleRequest(req, res, body));
  if (!isInitializeRequest(body)) return refuse(400, 'missing mcp-session-id');
  return { initialize: body };
}
