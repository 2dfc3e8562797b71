/** Running the built CLI with a logging git first on PATH: which git calls a drift check makes. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DriftReport } from '../../engine/drift/driftReport';
import { tempDir } from '../support/temp';

const CLI = path.join(__dirname, '..', '..', 'dist', 'cli.js');

/** A `git` first on PATH that logs each call's arguments (one line each) and runs the real git. */
export function countingGit(): { dir: string; calls: () => string[]; reset: () => void } {
  const dir = tempDir('engram-git-log-');
  const log = path.join(dir, 'calls.log');
  const real = (process.env.PATH ?? '')
    .split(path.delimiter)
    .map((d) => path.join(d, 'git'))
    .find((p) => existsSync(p));
  assert.ok(real, 'git on PATH');
  writeFileSync(path.join(dir, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(path.join(dir, 'git'), 0o755);
  return {
    dir,
    calls: () =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .split('\n')
            .filter((l) => l !== '')
        : [],
    reset: () => writeFileSync(log, ''),
  };
}

/** `engram drift --all --json` in a new process, as a user re-running the CLI would. */
export function cliDrift(dbPath: string, root: string, gitDir: string): DriftReport {
  const run = spawnSync(
    process.execPath,
    [CLI, '--db', dbPath, '--workspace', root, '--json', 'drift', '--all'],
    {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${gitDir}${path.delimiter}${process.env.PATH ?? ''}`, ENGRAM_DB: '' },
    },
  );
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as DriftReport;
}
