import path from 'node:path';
import { InvalidArgumentError } from 'commander';
import type { MethodName, MethodParams, MethodResult } from '../api/methods';

/**
 * A method's parameters as a command builds them from its arguments and options: the method's own
 * field names (a misspelt one does not compile), with the values as typed. The method's schema
 * checks the values, as it does for every host (optionErrors.ts names the option in its error).
 */
export type CliParams<M extends MethodName> = { [K in keyof MethodParams<M>]?: unknown };

/**
 * A result as text; with `exit`, the exit code too (a batch of which nothing could be written).
 * Called with `--json` as well, for the exit code.
 */
export type Render = (result: unknown) => string | { text: string; exit: number };

/** A method call on the command's open engine, with the command's actor added. */
export type CliCall = <M extends MethodName>(method: M, params: MethodParams<M>) => Promise<MethodResult<M>>;

/**
 * Opens the database, calls one method, prints the result, closes. `workspace` overrides
 * --workspace. `steps`: instead of the one call, several on the open engine (consolidation with
 * a model: plan, ask, apply), whose last result is printed.
 */
export type Invoke = <M extends MethodName>(
  method: M,
  params: CliParams<M>,
  render: Render,
  workspace?: string,
  steps?: (call: CliCall) => Promise<unknown>,
) => Promise<void>;

/** A numeric option value; anything else is a usage error naming the value. */
export function parseNumber(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n))
    throw new InvalidArgumentError(`"${value}" is not a number.`);
  return n;
}

/** The host may be another process with another working directory: send absolute paths. */
export function absolute(cwd: string, file: string): string {
  return path.resolve(cwd, file);
}
