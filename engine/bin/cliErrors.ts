import { CommanderError } from 'commander';
import { EngramError } from '../errors';

/** Exit codes: 0 ok, 1 usage error, 2 not found, 3 store error. */
export const EXIT = { ok: 0, usage: 1, notFound: 2, store: 3 } as const;

/**
 * Commander's usage errors as one line like every other error: `error: unknown option '--x'` and
 * its suggestion line become `engram: unknown option '--x' (run engram --help for usage)`.
 */
export function usageLine(text: string): string {
  const message = text
    .replace(/^error: /, '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join(' ');
  return `engram: ${message} (run engram --help for usage)\n`;
}

/** One line on stderr (with --json, a JSON document on stdout too); returns the exit code. */
export function reportError(
  error: unknown,
  io: { stdout(text: string): void; stderr(text: string): void },
  json: boolean,
): number {
  if (error instanceof CommanderError) {
    // Help and version are not failures; commander already printed its message.
    return error.exitCode === 0 || error.code === 'commander.helpDisplayed' ? EXIT.ok : EXIT.usage;
  }
  const code = EngramError.is(error) ? error.code : 'STORE';
  const exit =
    code === 'INVALID_INPUT' || code === 'TOO_LARGE'
      ? EXIT.usage
      : code === 'NOT_FOUND'
        ? EXIT.notFound
        : EXIT.store;
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown error';
  if (json) io.stdout(`${JSON.stringify({ error: { code, message } })}\n`);
  io.stderr(`engram: ${message}\n`);
  return exit;
}
