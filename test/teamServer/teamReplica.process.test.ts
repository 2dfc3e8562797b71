import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, it } from 'node:test';
import { Engram } from '../../engine/engram';
import {
  readReplica,
  REPLICA_SYNC_EVERY_MS,
  replicaDatabase,
  replicaDirectory,
  replicaSyncDue,
  syncReplica,
} from '../../engine/teamClient/teamReplica';
import { CLI } from '../cli/engramCli';
import { SQL_WASM_PATH, tempDir } from '../support/temp';
import { addToken, rpc, startTeamServer, teamEnv } from './teamServerProcess';
import type { TeamServerProcess } from './teamServerProcess';

const servers: TeamServerProcess[] = [];
after(() => Promise.all(servers.map((server) => server.stop())));

interface Listed {
  items: Array<{ content: string }>;
  stale?: { url: string; asOf: string };
}

it('reads the team server does not answer come from the local replica of the team scope, marked stale', async () => {
  const dir = tempDir('engram-team-replica-', { afterTest: false });
  const serverDb = path.join(dir, 'server', 'team.db');
  const token = addToken(serverDb, 'alice', 'memory:read,memory:write');
  const server = await startTeamServer(serverDb, ['--port', '0']);
  servers.push(server);
  const clientDb = path.join(dir, 'client', 'memory.db');
  const client = (args: string[]) => {
    const result = spawnSync(process.execPath, [CLI, '--db', clientDb, ...args], {
      encoding: 'utf8',
      env: teamEnv({ ENGRAM_TEAM_URL: server.url, ENGRAM_TEAM_TOKEN: token }),
    });
    assert.equal(result.status, 0, result.stderr);
    return { out: result.stdout, err: result.stderr };
  };

  client(['remember', 'The payments service retries webhooks three times']);
  // A teammate's write, straight to the server: this clone never had it.
  const teammate = await rpc(server.url, token, {
    id: 'replica-teammate-write',
    method: 'remember',
    params: { content: 'Deploys go out from the release branch only' },
  });
  assert.equal(teammate.status, 200);
  const online = client(['recall', 'webhooks retries']);
  assert.match(online.out, /retries webhooks three times/);
  assert.doesNotMatch(online.err, /stale/, 'the server answered');

  server.child.kill('SIGKILL');
  await server.stop();
  const offline = client(['recall', 'release branch deploys']);
  assert.match(offline.out, /Deploys go out from the release branch only/, offline.err);
  assert.match(
    offline.err,
    /did not answer .*answering from the local replica of the team's memories as of \S+: it may be stale/,
  );
  const listed = client(['--json', 'list']);
  const answer = JSON.parse(listed.out) as Listed;
  assert.deepEqual(answer.items.map((m) => m.content).sort(), [
    'Deploys go out from the release branch only',
    'The payments service retries webhooks three times',
  ]);
  assert.equal(answer.stale?.url, server.url, 'the JSON answer carries the marker too');
  assert.ok(Date.parse(answer.stale.asOf) <= Date.now());

  // The clone's own database never had the team's memories: without the replica there is nothing.
  const local = spawnSync(process.execPath, [CLI, '--db', clientDb, '--json', 'list'], {
    encoding: 'utf8',
    env: teamEnv(),
  });
  assert.deepEqual((JSON.parse(local.stdout) as Listed).items, []);
});

it("a sync copies the team's memories only when the server's store moved, and a replica answers for its own server and token only", async () => {
  const dir = tempDir('engram-team-sync-', { afterTest: false });
  const serverDb = path.join(dir, 'server', 'team.db');
  const token = addToken(serverDb, 'alice', 'memory:read,memory:write');
  const server = await startTeamServer(serverDb, ['--port', '0']);
  servers.push(server);
  const target = { url: server.url, token };
  const replica = replicaDirectory(path.join(dir, 'client', 'memory.db'));
  const open = (dbPath: string) => Engram.open({ dbPath, sqlWasmPath: SQL_WASM_PATH });
  const remember = async (id: string, content: string) =>
    assert.equal((await rpc(server.url, token, { id, method: 'remember', params: { content } })).status, 200);
  const contents = async () => {
    const engram = await open(replicaDatabase(replica));
    try {
      return (await engram.call('list', {})).items.map((m) => m.content).sort();
    } finally {
      await engram.close();
    }
  };

  await remember('sync-first', 'Builds are cached for a week');
  const first = await syncReplica(target, replica, open, 1000);
  assert.equal(first.kind, 'copied');
  assert.deepEqual(await contents(), ['Builds are cached for a week']);
  const again = await syncReplica(target, replica, open, 2000);
  assert.equal(again.kind, 'current', 'nothing moved: nothing copied');
  assert.equal(readReplica(replica, target)?.syncedAt, 2000);
  assert.equal(replicaSyncDue(replica, target, 2000 + REPLICA_SYNC_EVERY_MS - 1), false);
  assert.equal(replicaSyncDue(replica, target, 2000 + REPLICA_SYNC_EVERY_MS), true);

  await remember('sync-second', 'Release notes are written by the on-call engineer');
  assert.equal((await syncReplica(target, replica, open, 3000)).kind, 'copied');
  assert.deepEqual(await contents(), [
    'Builds are cached for a week',
    'Release notes are written by the on-call engineer',
  ]);
  assert.equal(
    readReplica(replica, { url: 'http://127.0.0.1:9', token }),
    undefined,
    "another server's replica is not this one",
  );
  // Another user's token: the server would list that user's private memories, not these.
  assert.equal(readReplica(replica, { url: server.url, token: 'engram_other' }), undefined);
  const refused = await syncReplica({ url: server.url, token: 'engram_wrong' }, replica, open, 4000);
  assert.equal(refused.kind, 'failed');
  assert.equal(readReplica(replica, target)?.syncedAt, 3000, 'a failed sync leaves the last copy');
});
