import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { buildCli } from '../../engine/bin/cliProgram';
import { resolveDefaultModelAssets } from '../../engine/embedding/useLiteAssets';
import { grammarsDirectory } from '../code/codeWorkspace';
import { SQL_WASM_PATH } from '../support/temp';

const require = createRequire(__filename);

/** The built CLI: tests run after `node scripts/build.mjs` (scripts/runTests.mjs does it). */
export const CLI = path.join(__dirname, '..', '..', 'dist', 'cli.js');

export interface CliResult {
  code: number | null;
  out: string;
  err: string;
}

/** The CLI's environment for a run in `cwd`: the user database inside it, never the real home. */
function cliEnv(cwd: string, env: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, ENGRAM_DB: '', ENGRAM_USER_DB: path.join(cwd, 'user-home', 'user.db'), ...env };
}

/**
 * The default model off for `engram()`: it costs ~2 s of CPU per command (a worker loads USE-lite
 * for every run), and most CLI tests check the command line, not dense retrieval. A test about the
 * model passes `WITH_MODEL`; the binary (`engramProcess`) keeps the default.
 */
const WITHOUT_MODEL = { ENGRAM_EMBEDDING: 'off' };

/** `engram(cwd, args, WITH_MODEL)`: the CLI's default embedding model, as a user gets it. */
export const WITH_MODEL = { ENGRAM_EMBEDDING: 'use-lite' };

/**
 * Runs `engram ARGS` in `cwd` inside this process: the same program `dist/cli.js` runs
 * (engine/bin/cliProgram.ts), with its output collected instead of written to the terminal. A
 * spawned CLI costs a second of bundle compilation per call; the binary itself is covered by
 * `engramProcess` in the process tier (test/cli/cliBinary.test.ts).
 */
export async function engram(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<CliResult> {
  let out = '';
  let err = '';
  const vars = cliEnv(cwd, { ...WITHOUT_MODEL, ...env });
  const cli = buildCli({
    cwd,
    env: vars,
    home: vars['HOME'] ?? os.homedir(),
    platform: process.platform,
    sqlWasmPath: SQL_WASM_PATH,
    grammarsDirectory: grammarsDirectory(),
    useLiteAssets: () => resolveDefaultModelAssets(require.resolve),
    stdout: (text) => {
      out += text;
    },
    stderr: (text) => {
      err += text;
    },
  });
  const code = await cli.run(args);
  return { code, out, err };
}

/**
 * Runs `node dist/cli.js ARGS` in `cwd` as its own process; `timeout` (ms) ends a stalled run,
 * which then fails on its exit code.
 */
export function engramProcess(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
  timeout?: number,
): CliResult {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: 'utf8',
    ...(timeout === undefined ? {} : { timeout }),
    env: cliEnv(cwd, env),
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}
