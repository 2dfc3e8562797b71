import assert from 'node:assert/strict';
import path from 'node:path';
import { after, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { tempDir } from '../support/temp';
import { addToken, rpc, startTeamServer } from './teamServerProcess';
import type { TeamServerProcess } from './teamServerProcess';

const servers: TeamServerProcess[] = [];
after(() => Promise.all(servers.map((s) => s.stop())));

/**
 * sql.js holds the store in one process: a second server on the same database runs every call in
 * the first, over the local socket (docs/team-server.md, One store, one writer). It adds no
 * capacity, but it must keep the exactly-once promise through that hop and through a takeover.
 */
it('a second server on the same store forwards to the first, and takes over with request ids kept', async () => {
  const db = path.join(tempDir('engram-team-two-', { afterTest: false }), 'team.db');
  const token = addToken(db, 'alice', 'memory:read,memory:write');
  const first = await startTeamServer(db, ['--port', '0']);
  servers.push(first);
  const second = await startTeamServer(db, ['--port', '0']);
  servers.push(second);
  const role = async () => ((await (await fetch(`${second.url}/healthz`)).json()) as { role: string }).role;
  assert.equal(await role(), 'client');

  const write = {
    id: 'two-servers-write-1',
    method: 'remember',
    params: { content: 'written through the second' },
  };
  const answered = await rpc(second.url, token, write);
  assert.equal(answered.status, 200);

  first.child.kill('SIGKILL');
  await first.stop();
  // The second takes the lock and opens the store on its next call (or when it notices the loss).
  for (let i = 0; i < 200 && (await role()) !== 'host'; i++) await delay(25);
  assert.equal(await role(), 'host');

  const again = await rpc(second.url, token, write);
  assert.equal(again.status, 200);
  assert.deepEqual(again.body, answered.body, 'the re-sent write is answered from the first result');
  const list = await rpc(second.url, token, { id: 'two-servers-list', method: 'list', params: {} });
  const items = (list.body['result'] as { items: Array<{ content: string; confirmations: number }> }).items;
  assert.deepEqual(
    items.map((m) => [m.content, m.confirmations]),
    [['written through the second', 1]],
  );
});
