import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, it } from 'node:test';
import {
  readReplica,
  REPLICA_SYNC_EVERY_MS,
  replicaSyncDue,
  syncReplica,
} from '../../engine/teamClient/teamReplica';
import { CLI } from '../cli/engramCli';
import { tempDir } from '../support/temp';
import { outcome, replicaSetUp, servers } from './replicaSetUp';
import { addToken, rpc, startTeamServer, teamEnv } from './teamServerProcess';

after(() => Promise.all(servers.map((server) => server.stop())));

interface Listed {
  items: Array<{ id: string; content: string; pinned: boolean }>;
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
  const { server, token, target, replica, open, send, inReplica } = await replicaSetUp('engram-team-sync-');
  const remember = (content: string) => send('remember', { content });
  const contents = () =>
    inReplica(async (engram) => (await engram.call('list', {})).items.map((m) => m.content).sort());

  await remember('Builds are cached for a week');
  const first = await syncReplica(target, replica, open, 1000);
  assert.equal(first.kind, 'copied');
  assert.deepEqual(await contents(), ['Builds are cached for a week']);
  const again = await syncReplica(target, replica, open, 2000);
  assert.equal(again.kind, 'current', 'nothing moved: nothing copied');
  assert.equal(readReplica(replica, target)?.syncedAt, 2000);
  assert.equal(replicaSyncDue(replica, target, 2000 + REPLICA_SYNC_EVERY_MS - 1), false);
  assert.equal(replicaSyncDue(replica, target, 2000 + REPLICA_SYNC_EVERY_MS), true);

  await remember('Release notes are written by the on-call engineer');
  assert.equal((await syncReplica(target, replica, open, 3000)).kind, 'updated');
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

it('a sync after the first copies only the memories changed since: edits with their history, invalidations and pins', async () => {
  const { target, replica, open, send, inReplica } = await replicaSetUp('engram-replica-inc-');
  const ids: string[] = [];
  for (const content of [
    'The billing job runs at 02:00 UTC',
    'Feature flags live in the flags service',
    'The staging database is reset every Sunday',
    'Use pnpm for the web workspace',
    'Logs are kept for 30 days',
  ])
    ids.push((await send<{ memory: { id: string } }>('remember', { content })).memory.id);
  assert.equal(outcome(await syncReplica(target, replica, open, 1000)), 'copied 5');

  const [billing, flags, staging, pnpm] = ids as [string, string, string, string];
  await send('edit', { id: billing, changes: { content: 'The billing job runs at 03:00 UTC' } });
  await send('invalidate', { id: flags, reason: 'flags moved into the config repository' });
  await send('pin', { id: staging });
  await send('remember', { content: 'Deploy freezes start on the 20th of December' });
  // Reads move access counters only: no reason to copy anything.
  await send('get', { id: pnpm });

  assert.equal(
    outcome(await syncReplica(target, replica, open, 2000)),
    'updated 4',
    'the edited, invalidated, pinned and new memory only',
  );
  const listed = await inReplica((engram) => engram.call('list', {}) as Promise<Listed>);
  assert.deepEqual(listed.items.map((m) => m.content).sort(), [
    'Deploy freezes start on the 20th of December',
    'Logs are kept for 30 days',
    'The billing job runs at 03:00 UTC',
    'The staging database is reset every Sunday',
    'Use pnpm for the web workspace',
  ]);
  assert.equal(listed.items.find((m) => m.id === staging)?.pinned, true);
  const history = await inReplica((engram) => engram.call('history', { id: billing }));
  assert.deepEqual(
    history.versions.map((v) => v.content),
    ['The billing job runs at 02:00 UTC', 'The billing job runs at 03:00 UTC'],
    'the replica keeps every version, not only the current one',
  );
  const recalled = await inReplica((engram) => engram.call('recall', { query: 'billing job' }));
  assert.deepEqual(
    recalled.hits.map((h) => h.memory.content),
    ['The billing job runs at 03:00 UTC'],
    'the lexical index holds the edited text, not the old one',
  );
  const gone = await inReplica((engram) => engram.call('get', { id: flags }));
  assert.equal(gone.memory.status, 'invalidated');

  assert.equal(outcome(await syncReplica(target, replica, open, 3000)), 'current 0');
  await send('unpin', { id: staging });
  assert.equal(outcome(await syncReplica(target, replica, open, 4000)), 'updated 1');
  const unpinned = await inReplica((engram) => engram.call('get', { id: staging }));
  assert.equal(unpinned.memory.pinned, false, 'a pin changes no version: it comes through the ledger');
});

it('a sync copies in pages, and starts over when the server is behind the copy', async () => {
  const { target, replica, open, send, inReplica } = await replicaSetUp('engram-replica-page-');
  const many = Array.from({ length: 12 }, (_, i) => ({
    content: `Runbook step ${i + 1} of the failover drill`,
  }));
  await send('rememberMany', { memories: many });
  assert.equal(outcome(await syncReplica(target, replica, open, 1000, 5)), 'copied 12');
  const edited = (await send<Listed>('list', { limit: 3 })).items;
  for (const m of edited) await send('edit', { id: m.id, changes: { content: `${m.content}, checked` } });
  assert.equal(outcome(await syncReplica(target, replica, open, 2000, 2)), 'updated 3');
  const listed = await inReplica((engram) => engram.call('list', { limit: 100 }) as Promise<Listed>);
  assert.equal(listed.items.length, 12);
  assert.equal(listed.items.filter((m) => m.content.endsWith(', checked')).length, 3);

  // A copy ahead of the server's store is of another store (replaced, restored): copied whole.
  const stateFile = path.join(replica, 'replica.json');
  const state = JSON.parse(readFileSync(stateFile, 'utf8')) as { position: { versions: number } };
  writeFileSync(
    stateFile,
    JSON.stringify({ ...state, position: { ...state.position, versions: 1_000_000 } }),
  );
  assert.equal(outcome(await syncReplica(target, replica, open, 3000, 5)), 'copied 12');
  assert.ok((readReplica(replica, target)?.position.versions ?? 0) < 1_000_000);
});
