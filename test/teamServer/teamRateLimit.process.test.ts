import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { WriteQueue } from '../../engine/teamClient/writeQueue';
import { tempDir } from '../support/temp';
import { addToken, rpc, startTeamServer } from './teamServerProcess';
import type { TeamServerProcess } from './teamServerProcess';

let limited: TeamServerProcess;
let paced: TeamServerProcess;
let busy: string;
let quiet: string;
let flusher: string;
let dir: string;

before(async () => {
  dir = tempDir('engram-team-rate-', { afterTest: false });
  const db = path.join(dir, 'limited', 'team.db');
  busy = addToken(db, 'busy', 'memory:write');
  quiet = addToken(db, 'quiet', 'memory:write');
  // A burst of two, then one request every 20 s: the third is over the limit however slow the machine.
  limited = await startTeamServer(db, ['--port', '0', '--rate', '0.05', '--burst', '2']);
  const pacedDb = path.join(dir, 'paced', 'team.db');
  flusher = addToken(pacedDb, 'flusher', 'memory:write');
  // One request a second, no burst: a flush of three waits out a Retry-After of 1 s about twice.
  paced = await startTeamServer(pacedDb, ['--port', '0', '--rate', '1', '--burst', '1']);
});
after(() => Promise.all([limited.stop(), paced.stop()]));

it('a token past its rate gets 429 with Retry-After, its request is not applied, other tokens go on', async () => {
  const remember = (n: number) => ({
    id: `rate-limit-${n}`,
    method: 'remember',
    params: { content: `note ${n}` },
  });
  assert.equal((await rpc(limited.url, busy, remember(1))).status, 200);
  assert.equal((await rpc(limited.url, busy, remember(2))).status, 200);
  const refused = await rpc(limited.url, busy, remember(3));
  assert.equal(refused.status, 429);
  assert.ok(
    Number(refused.headers.get('retry-after')) >= 1,
    `Retry-After: ${refused.headers.get('retry-after')}`,
  );

  const list = await rpc(limited.url, quiet, { id: 'rate-limit-list', method: 'list', params: {} });
  assert.equal(list.status, 200, 'another token has its own bucket');
  const contents = (list.body['result'] as { items: Array<{ content: string }> }).items.map((m) => m.content);
  assert.deepEqual(contents.sort(), ['note 1', 'note 2']);
});

it('a flush waits out the rate limit (Retry-After) and sends the whole queue', async () => {
  const queue = new WriteQueue(path.join(dir, 'queue'));
  for (let n = 0; n < 3; n++) queue.enqueue('remember', { content: `queued ${n}` }, Date.now());
  const report = await queue.flush({ url: paced.url, token: flusher });
  assert.equal(report.stoppedBy, undefined);
  assert.equal(report.sent.length, 3);
  assert.equal(queue.pending().length, 0);
});
