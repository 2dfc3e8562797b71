import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { EngramError } from '../errors';

/**
 * A JSON-RPC error the SDK sends as it is: its `code` and `message` (McpError would prefix the
 * message with "MCP error -32602:", which the client's McpError prefixes again).
 */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';

  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export function invalidParams(message: string): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidParams, message);
}

/** One line naming the first bad field, e.g. `memory_remember: importance: must be at most 1`. */
export function argumentError(tool: string, error: z.ZodError): ProtocolError {
  const issue = error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : 'arguments';
  const message = (issue?.message ?? 'invalid').replace(/\s+/g, ' ');
  return invalidParams(`${tool}: ${field}: ${message}`);
}

/** Bad input the engine found (it names the field) is the caller's error too: a JSON-RPC error, nothing changed. */
export function isCallerError(error: unknown): error is EngramError {
  return EngramError.is(error, 'INVALID_INPUT') || EngramError.is(error, 'TOO_LARGE');
}

/** The first line of an error, for a one-line answer. */
export function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? 'unknown error';
}
