import type http from 'node:http';

export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A JSON-RPC error answer with this status (the MCP transport's own shape, id null). */
export function reply(res: http.ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/** A body past MAX_BODY_BYTES: refused, and the connection closed rather than drained. */
export function tooLarge(res: http.ServerResponse): void {
  res.setHeader('connection', 'close');
  reply(res, 413, 'the body must be JSON of at most 4 MiB');
}

export const TOO_LARGE = Symbol('too large');

/** The parsed body; undefined when it is not JSON, TOO_LARGE past MAX_BODY_BYTES. */
export async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return TOO_LARGE;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
