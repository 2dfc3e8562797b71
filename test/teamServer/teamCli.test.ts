import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { engram } from '../cli/engramCli';
import { tempDir } from '../support/temp';

/** Nothing listens on port 9 (discard) here: a refused connection, at once. */
const DOWN = 'http://127.0.0.1:9';

it('a team URL without a token, or not http(s), is a usage error naming what is missing', async () => {
  const cwd = tempDir();
  const noToken = await engram(cwd, ['--team-url', DOWN, 'list']);
  assert.equal(noToken.code, 1);
  assert.match(noToken.err, /--team-url is set but ENGRAM_TEAM_TOKEN is not/);
  const ftp = await engram(cwd, ['list'], { ENGRAM_TEAM_URL: 'ftp://example.com', ENGRAM_TEAM_TOKEN: 't' });
  assert.equal(ftp.code, 1);
  assert.match(ftp.err, /ENGRAM_TEAM_URL must be an http\(s\) URL; got "ftp:\/\/example.com"/);
});

it('engram serve takes one of --mcp or --team', async () => {
  const result = await engram(tempDir(), ['serve']);
  assert.equal(result.code, 1);
  assert.match(result.err, /engram serve takes one of --mcp or --team/);
});

it('--store goes with --team; with a model, an unreachable store fails in one line', async () => {
  const cwd = tempDir();
  const mcp = await engram(cwd, ['serve', '--mcp', '--store', 'postgres://engram@127.0.0.1/team']);
  assert.equal(mcp.code, 1);
  assert.match(mcp.err, /--store goes with --team/);
  const db = path.join(cwd, 'team.db');
  await engram(cwd, ['--db', db, 'team', 'token', 'add', 'alice']);
  const embedded = await engram(cwd, [
    '--db',
    db,
    '--embedding',
    'use-lite',
    'serve',
    '--team',
    '--store',
    'postgres://engram@127.0.0.1/team',
  ]);
  assert.notEqual(embedded.code, 0);
  assert.equal(embedded.err.trim().split('\n').length, 1, embedded.err);
  // A model is no longer refused with --store (dense recall ranks in PostgreSQL): what fails
  // here is the unreachable store, in one line.
  assert.match(embedded.err, /cannot use PostgreSQL at postgres:\/\/engram@127\.0\.0\.1\/team/);
});

it('a queued write says so in --json too; methods the server does not serve stay local', async () => {
  const cwd = tempDir();
  const env = { ENGRAM_TEAM_URL: DOWN, ENGRAM_TEAM_TOKEN: 'engram_x' };
  const db = path.join(cwd, 'memory.db');
  const queued = await engram(cwd, ['--db', db, '--json', 'remember', 'while offline'], env);
  assert.equal(queued.code, 0, queued.err);
  const answer = JSON.parse(queued.out) as { queued: { method: string; request: string; waiting: number } };
  assert.equal(answer.queued.method, 'remember');
  assert.equal(answer.queued.waiting, 1);
  assert.ok(existsSync(path.join(cwd, 'team-queue')));
  // export is not served by a team server: it runs on the local database, no network involved.
  const local = await engram(cwd, ['--db', db, 'export', '--format', 'md'], env);
  assert.equal(local.code, 0, local.err);
  assert.doesNotMatch(local.err, /did not answer/);
});
