import type { Command } from 'commander';
import { EngramError } from '../errors';

/**
 * The CLI sends its options to a method as they are and lets the method's schema check them. The
 * schema's one-line error names the parameter (`hops must be 1 to 4; got 9`); on the command line
 * the user wrote an option, so the error names that instead (`--hops must be 1 to 4; got 9`).
 */
export function namingOption(error: unknown, command: Command | undefined): Error {
  if (!command || !(EngramError.is(error, 'INVALID_INPUT') || EngramError.is(error, 'TOO_LARGE')))
    return error instanceof Error ? error : new Error(String(error));
  const field = /^[A-Za-z]+(?=[ .[])/.exec(error.message)?.[0];
  const option = command.options.find((o) => o.attributeName() === field);
  const flag = option?.long ?? option?.short;
  if (field === undefined || flag === undefined) return error;
  return new EngramError(error.code, `${flag}${error.message.slice(field.length)}`, error.details);
}
