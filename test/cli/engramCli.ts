import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** The built CLI: tests run after `node scripts/build.mjs` (scripts/runTests.mjs does it). */
export const CLI = path.join(__dirname, '..', '..', 'dist', 'cli.js');

export interface CliResult {
  code: number | null;
  out: string;
  err: string;
}

/**
 * Runs `node dist/cli.js ARGS` in `cwd`, with the user database inside it (never the real home);
 * `timeout` (ms) ends a stalled run, which then fails on its exit code.
 */
export function engram(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
  timeout?: number,
): CliResult {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: 'utf8',
    ...(timeout === undefined ? {} : { timeout }),
    env: { ...process.env, ENGRAM_DB: '', ENGRAM_USER_DB: path.join(cwd, 'user-home', 'user.db'), ...env },
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}
