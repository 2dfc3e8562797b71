/* eslint-disable no-console -- this module swaps the console's methods; it never logs through them */
import { format } from 'node:util';
import type { Logger } from '../host';

/**
 * hnswlib-wasm writes to console.log while it loads and after every file-system sync, and it binds
 * `console.log` once, at load, as the sink for everything its C++ prints. In the MCP process
 * stdout is the protocol channel, so those calls run with the console routed to the engine's
 * logger. The routed functions stay routed after the window closes (the library keeps the bound
 * copy) and always write to the most recent logger.
 */
let target: Logger | undefined;
let depth = 0;
let saved: Pick<Console, 'log' | 'info' | 'debug' | 'warn' | 'error'> | undefined;

const line = (args: unknown[]) => format(...args).replace(/\n+$/, '');
const routed = {
  log: (...args: unknown[]) => target?.debug(`hnswlib: ${line(args)}`),
  info: (...args: unknown[]) => target?.debug(`hnswlib: ${line(args)}`),
  debug: (...args: unknown[]) => target?.debug(`hnswlib: ${line(args)}`),
  warn: (...args: unknown[]) => target?.warn(`hnswlib: ${line(args)}`),
  error: (...args: unknown[]) => target?.error(`hnswlib: ${line(args)}`),
};

/**
 * Runs `fn` with console.log/info/debug/warn/error sent to `logger`. Calls nest; the console is
 * restored when the outermost one settles. Anything else that logs to the console meanwhile is
 * routed too, which is why the windows are kept to the library's own calls.
 */
export async function withConsoleRouted<T>(logger: Logger, fn: () => Promise<T>): Promise<T> {
  target = logger;
  if (depth++ === 0) {
    saved = {
      log: console.log,
      info: console.info,
      debug: console.debug,
      warn: console.warn,
      error: console.error,
    };
    Object.assign(console, routed);
  }
  try {
    return await fn();
  } finally {
    if (--depth === 0 && saved) {
      // Only undo our own patch: if someone replaced console.log meanwhile, theirs stays.
      if (console.log === routed.log) Object.assign(console, saved);
      saved = undefined;
    }
  }
}
