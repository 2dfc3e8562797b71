/**
 * Typed engine errors. Every error a caller can act on carries a stable `code`; boundaries (CLI, MCP,
 * chat, webviews) map codes to exit codes or protocol errors and show `message`, which is one line
 * that names what was wrong.
 */
export type EngramErrorCode =
  /** Caller input was invalid (empty text, unknown layer, malformed import line, ...). */
  | 'INVALID_INPUT'
  /** The memory, entity or version asked for does not exist. */
  | 'NOT_FOUND'
  /** Content or a session's working memory would exceed its size cap. */
  | 'TOO_LARGE'
  /** The database file or its journal is unreadable; nothing was written. */
  | 'CORRUPT'
  /** The store could not be opened, locked or written. */
  | 'STORE'
  /** The engine host could not be reached and could not be taken over. */
  | 'UNAVAILABLE'
  /** The store has been closed. */
  | 'CLOSED'
  /** The caller is known but may not do this (a team server token without the scope). */
  | 'FORBIDDEN';

export class EngramError extends Error {
  override readonly name = 'EngramError';

  constructor(
    readonly code: EngramErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }

  static is(error: unknown, code?: EngramErrorCode): error is EngramError {
    return (
      typeof error === 'object' &&
      error !== null &&
      (error as { name?: unknown }).name === 'EngramError' &&
      (code === undefined || (error as { code?: unknown }).code === code)
    );
  }
}

export function invalidInput(message: string): EngramError {
  return new EngramError('INVALID_INPUT', message);
}

export function notFound(message: string): EngramError {
  return new EngramError('NOT_FOUND', message);
}
