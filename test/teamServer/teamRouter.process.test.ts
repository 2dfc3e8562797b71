import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { silentLogger } from '../../engine/host';
import { workerScriptsIn } from '../../engine/process/workerScripts';
import { ReplicaThread } from '../../engine/teamClient/replicaThread';
import { EngramError } from '../../engine/errors';
import { readReplica } from '../../engine/teamClient/teamReplica';
import { TeamRouter } from '../../engine/teamClient/teamRouter';
import { SQL_WASM_PATH, tempDir } from '../support/temp';
import { addToken, freePort, rpc, startTeamServer } from './teamServerProcess';
import type { TeamServerProcess } from './teamServerProcess';

const FIX = 'run "Engram: Set Team Server Token"';
/** The built bundles (runTests.mjs builds first): the worker runs as the extension starts it. */
const DIST = path.join(__dirname, '..', '..', 'dist');
let dir: string;
let url: string;
let token: string;
let server: TeamServerProcess | undefined;

before(async () => {
  dir = tempDir('engram-team-router-', { afterTest: false });
  token = addToken(path.join(dir, 'team.db'), 'alice', 'memory:read,memory:write');
  url = `http://127.0.0.1:${await freePort()}`;
});
after(() => server?.stop());

/** Each call of the local database, by method: what the router did not send to the server. */
function localCalls() {
  const calls: string[] = [];
  return { calls, local: (method: string) => () => (calls.push(method), Promise.resolve({ local: true })) };
}

async function serverContents(): Promise<string[]> {
  const answer = await rpc(url, token, { id: `list-${Date.now()}`, method: 'list', params: { limit: 100 } });
  assert.equal(answer.status, 200);
  return (answer.body['result'] as { items: Array<{ content: string }> }).items.map((m) => m.content).sort();
}

it('while the server is down, a write is queued and fails with UNAVAILABLE; a read is answered locally', async () => {
  const router = new TeamRouter({ url, token }, path.join(dir, 'queue'), FIX);
  const { calls, local } = localCalls();
  await assert.rejects(
    router.call('remember', { content: 'queued while offline' }, local('remember')),
    (error: unknown) =>
      EngramError.is(error, 'UNAVAILABLE') &&
      typeof error.details?.['queued'] === 'string' &&
      /remember is queued, 1 waiting/.test(error.message),
  );
  assert.deepEqual(await router.call('recall', { query: 'offline' }, local('recall')), { local: true });
  assert.deepEqual(calls, ['recall']);
  assert.equal(router.queued(), 1);
  assert.equal((await router.status()).state, 'offline');
});

it('once the server is up, writes and reads go to it, the queued write first; local methods stay local', async () => {
  server = await startTeamServer(path.join(dir, 'team.db'), ['--port', new URL(url).port]);
  const router = new TeamRouter({ url, token }, path.join(dir, 'queue'), FIX);
  const { calls, local } = localCalls();
  const result = (await router.call('remember', { content: 'sent online' }, local('remember'))) as {
    memory: { content: string };
  };
  assert.equal(result.memory.content, 'sent online');
  assert.equal(router.queued(), 0);
  assert.deepEqual(await serverContents(), ['queued while offline', 'sent online']);
  const stats = (await router.call('stats', {}, local('stats'))) as { memories: number };
  assert.equal(stats.memories, 2);
  // Code, drift and capture work on this machine's workspace: never the server's business.
  assert.deepEqual(await router.call('scan', {}, local('scan')), { local: true });
  assert.deepEqual(calls, ['scan']);
  assert.deepEqual(await router.status(), {
    state: 'connected',
    queued: 0,
    message: `team server ${url} connected; queued 0`,
  });
});

it('a refused token fails a write with one line naming the fix, and keeps the write queued', async () => {
  const router = new TeamRouter({ url, token: 'engram_wrong' }, path.join(dir, 'queue-wrong'), FIX);
  const { local } = localCalls();
  await assert.rejects(
    router.call('remember', { content: 'kept for a good token' }, local('remember')),
    (error: unknown) =>
      EngramError.is(error, 'FORBIDDEN') && error.message.endsWith(FIX) && !error.message.includes('\n'),
  );
  assert.equal(router.queued(), 1);
  const status = await router.status();
  assert.equal(status.state, 'unauthorized');
  assert.ok(status.message.includes(FIX), status.message);
});

it('with a replica: a read the server answered refreshes it; once the server is killed, reads come from it, marked stale', async () => {
  // In its worker thread, as the extension holds it.
  const replica = new ReplicaThread({
    directory: path.join(dir, 'team-replica'),
    sqlWasmPath: SQL_WASM_PATH,
    clientName: 'test-replica',
    script: workerScriptsIn(DIST).replica,
    logger: silentLogger,
  });
  const router = new TeamRouter({ url, token }, path.join(dir, 'queue'), FIX, replica);
  const { calls, local } = localCalls();
  const online = (await router.call('list', {}, local('list'))) as { items: Array<{ content: string }> };
  assert.equal(router.staleNote(), undefined, 'the server answered');
  assert.deepEqual(online.items.map((m) => m.content).sort(), ['queued while offline', 'sent online']);
  await router.synced();

  server!.child.kill('SIGKILL');
  await server!.stop();
  const offline = (await router.call('recall', { query: 'sent online' }, local('recall'))) as {
    hits: Array<{ memory: { content: string } }>;
  };
  assert.equal(offline.hits[0]?.memory.content, 'sent online');
  assert.deepEqual(calls, [], 'the local database was not asked');
  const status = await router.status();
  assert.equal(status.state, 'offline');
  assert.match(
    status.message,
    /reads come from the local replica of the team's memories as of \S+: they may be stale$/,
  );
  const copy = readReplica(replica.directory, { url, token });
  assert.ok(copy, 'the answered read took a copy');
  assert.equal(status.replicaAsOf, new Date(copy.syncedAt).toISOString());
  assert.match(
    router.staleNote() ?? '',
    /^The team server \S+ did not answer: from the local replica of the team's memories as of \S+, which may be stale\.$/,
  );
  assert.ok(replica.running, 'the worker holds the replica between reads');
  await router.dispose();
  assert.equal(replica.running, false, 'and ends with the router');
});
