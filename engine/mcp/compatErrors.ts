import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

/**
 * Errors of the compat tools as the official MCP memory server gives them: a tool result with
 * isError (not a JSON-RPC error, so the client's model reads it), with the SDK's McpServer texts:
 * bad arguments as "MCP error -32602: Input validation error: ..." listing every issue with its
 * path, a failed call as the error's own message ("Entity with name X not found").
 */
export function compatErrorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** `entities[0].name`: the first key as it is, then `[i]` for indexes and `.key` for keys. */
function pathText(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key, i) => {
    if (i === 0) return String(key);
    return typeof key === 'number' ? `${out}[${key}]` : `${out}.${String(key)}`;
  }, '');
}

export function compatArgumentMessage(tool: string, error: z.ZodError): string {
  const issues = error.issues
    .map((issue) => (issue.path.length === 0 ? issue.message : `${issue.message} at ${pathText(issue.path)}`))
    .join('\n');
  return `MCP error ${ErrorCode.InvalidParams}: Input validation error: Invalid arguments for tool ${tool}: ${issues}`;
}
