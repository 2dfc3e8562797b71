import { writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A script for a child's `node --require HOOK` that records what the child does in `log` (the
 * lines of code get the log's path): a process test's view of what happened inside a real process.
 */
export function writeRequireHook(
  dir: string,
  name: string,
  code: (log: string) => string[],
): { hook: string; log: string } {
  const hook = path.join(dir, `${name}.js`);
  const log = path.join(dir, `${name}.log`);
  writeFileSync(hook, code(JSON.stringify(log)).join('\n'));
  return { hook, log };
}
