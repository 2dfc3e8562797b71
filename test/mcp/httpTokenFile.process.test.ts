import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { CLI } from '../cli/engramCli';
import { GitRepository } from '../drift/gitRepository';
import { bridgeEnv } from './bridgeProcess';

test('serve --mcp --http in a fresh git repository: `git add -A` never stages the token file, which is gone once the server stops', async () => {
  const repo = new GitRepository();
  const tokenFile = path.join(repo.root, '.engram', 'mcp-http.json');
  const child = spawn(process.execPath, [CLI, 'serve', '--mcp', '--http'], {
    cwd: repo.root,
    env: bridgeEnv({ ENGRAM_DB: '' }),
    stdio: 'ignore',
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    // Stage the moment the token file appears: the .gitignore must already be there.
    while (!existsSync(tokenFile) && child.exitCode === null) await delay(5);
    assert.ok(existsSync(tokenFile), 'the server ended before it wrote its token file');
    repo.git('add', '-A');
    assert.deepEqual(repo.git('diff', '--cached', '--name-only'), '');
  } finally {
    child.kill('SIGTERM');
  }
  assert.equal(await exited, 0);
  assert.equal(existsSync(tokenFile), false, 'the token file outlives the server');
});
