import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { teamStatus } from '../../engine/teamClient/teamStatus';
import { WriteQueue } from '../../engine/teamClient/writeQueue';
import { tempDir } from '../support/temp';
import { addToken, freePort, startTeamServer } from './teamServerProcess';
import type { TeamServerProcess } from './teamServerProcess';

const HINT = 'run "Engram: Set Team Server Token"';
let dir: string;
let url: string;
let token: string;
let server: TeamServerProcess | undefined;

before(async () => {
  dir = tempDir('engram-team-status-', { afterTest: false });
  token = addToken(path.join(dir, 'team.db'), 'alice', 'memory:read,memory:write');
  url = `http://127.0.0.1:${await freePort()}`;
});
after(() => server?.stop());

it('reports offline with the number of queued writes while the server is down', async () => {
  const queue = new WriteQueue(path.join(dir, 'queue'));
  queue.enqueue('remember', { content: 'written offline' }, Date.now());
  const status = await teamStatus({ url, token }, queue, HINT);
  assert.equal(status.state, 'offline');
  assert.equal(status.queued, 1);
  assert.match(status.message, /offline .*queued 1$/);
});

it('reports connected once the server is up, after sending the queued write', async () => {
  server = await startTeamServer(path.join(dir, 'team.db'), ['--port', new URL(url).port]);
  const status = await teamStatus({ url, token }, new WriteQueue(path.join(dir, 'queue')), HINT);
  assert.deepEqual([status.state, status.queued], ['connected', 0]);
});

it('gives one clear message for a wrong token, with the write still queued', async () => {
  const queue = new WriteQueue(path.join(dir, 'queue-wrong'));
  queue.enqueue('remember', { content: 'kept for a good token' }, Date.now());
  const status = await teamStatus({ url, token: 'wrong-token' }, queue, HINT);
  assert.equal(status.state, 'unauthorized');
  assert.equal(status.queued, 1);
  assert.equal(status.message.split('\n').length, 1);
  assert.ok(status.message.includes(HINT), status.message);
});
