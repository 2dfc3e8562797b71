import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { sendToTeam } from '../../engine/teamClient/teamConnection';
import { queueDirectory, WriteQueue } from '../../engine/teamClient/writeQueue';
import { CLI } from '../cli/engramCli';
import { tempDir } from '../support/temp';
import { addToken, freePort, rpc, startTeamServer, teamEnv } from './teamServerProcess';
import type { TeamServerProcess } from './teamServerProcess';

let dir: string;
let clientDb: string;
let url: string;
let token: string;
let server: TeamServerProcess | undefined;

before(async () => {
  dir = tempDir('engram-team-queue-', { afterTest: false });
  clientDb = path.join(dir, 'client', 'memory.db');
  token = addToken(path.join(dir, 'team.db'), 'alice', 'memory:read,memory:write');
  url = `http://127.0.0.1:${await freePort()}`;
});
after(() => server?.stop());

/** `engram --db CLIENT ARGS` as its own process, pointed at the team server. */
function client(args: string[]) {
  const result = spawnSync(process.execPath, [CLI, '--db', clientDb, ...args], {
    encoding: 'utf8',
    env: teamEnv({ ENGRAM_TEAM_URL: url, ENGRAM_TEAM_TOKEN: token }),
  });
  assert.equal(result.status, 0, result.stderr);
  return result.stdout;
}

/**
 * How many times the server was told each content: a memory per content, plus its confirmations
 * past the first (the same text remembered again confirms the memory instead of adding one).
 */
async function serverContents(): Promise<Map<string, number>> {
  const answer = await rpc(url, token, { id: `list-${Date.now()}`, method: 'list', params: { limit: 1000 } });
  assert.equal(answer.status, 200);
  const counts = new Map<string, number>();
  for (const m of (answer.body['result'] as { items: Array<{ content: string; confirmations: number }> })
    .items)
    counts.set(m.content, (counts.get(m.content) ?? 0) + m.confirmations);
  return counts;
}

const pending = () => new WriteQueue(queueDirectory(clientDb)).pending().length;

it('writes made while the server is down are queued on disk, then sent once each when it is back', async () => {
  for (const n of [1, 2, 3]) assert.match(client(['remember', `offline ${n}`]), /^queued remember/);
  assert.equal(pending(), 3);
  // A read falls back to the local database meanwhile.
  const read = spawnSync(process.execPath, [CLI, '--db', clientDb, 'list'], {
    encoding: 'utf8',
    env: teamEnv({ ENGRAM_TEAM_URL: url, ENGRAM_TEAM_TOKEN: token }),
  });
  assert.equal(read.status, 0);
  assert.match(read.stderr, /did not answer .*answering from the local database/);

  // A rate far above what one flush sends: this test is about the queue, not the limit.
  server = await startTeamServer(path.join(dir, 'team.db'), ['--port', new URL(url).port, '--rate', '10000']);
  assert.match(client(['team', 'flush']), /^sent 3, rejected 0, waiting 0/);
  assert.equal(pending(), 0);
  assert.match(client(['team', 'flush']), /^sent 0/);
  const contents = await serverContents();
  for (const n of [1, 2, 3]) assert.equal(contents.get(`offline ${n}`), 1);
});

it('a write the server applied but the client did not remove is not applied twice', async () => {
  const queue = new WriteQueue(queueDirectory(clientDb));
  const write = queue.enqueue('remember', { content: 'answered, then the client died' }, Date.now());
  // The client sent it and was killed before it removed the file.
  assert.equal((await sendToTeam({ url, token }, write.id, write.method, write.params)).kind, 'answered');
  assert.match(client(['team', 'flush']), /^sent 1/);
  assert.equal((await serverContents()).get('answered, then the client died'), 1);
});

it('a client killed (SIGKILL) in the middle of a flush loses nothing and duplicates nothing', async () => {
  const queue = new WriteQueue(queueDirectory(clientDb));
  const total = 60;
  for (let n = 0; n < total; n++) queue.enqueue('remember', { content: `flushed ${n}` }, Date.now());
  const flush = spawn(process.execPath, [CLI, '--db', clientDb, 'team', 'flush'], {
    env: teamEnv({ ENGRAM_TEAM_URL: url, ENGRAM_TEAM_TOKEN: token }),
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => flush.once('exit', resolve));
  while (pending() > total - 5 && flush.exitCode === null) await delay(5);
  flush.kill('SIGKILL');
  await exited;
  const left = pending();
  assert.ok(left > 0 && left < total, `killed with ${left} of ${total} writes left`);

  assert.match(client(['team', 'flush']), new RegExp(`^sent ${left}, rejected 0, waiting 0`));
  const contents = await serverContents();
  for (let n = 0; n < total; n++) assert.equal(contents.get(`flushed ${n}`), 1, `flushed ${n}`);
});
