import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, it } from 'node:test';
import { Engram } from '../../engine/engram';
import { EngramError } from '../../engine/errors';
import { silentLogger } from '../../engine/host';
import { workerScriptsIn } from '../../engine/process/workerScripts';
import { HeldReplica } from '../../engine/teamClient/heldReplica';
import { ReplicaThread } from '../../engine/teamClient/replicaThread';
import { syncReplica } from '../../engine/teamClient/teamReplica';
import { SQL_WASM_PATH } from '../support/temp';
import { waitUntil } from '../support/waitUntil';
import { outcome, replicaSetUp, servers } from './replicaSetUp';

after(() => Promise.all(servers.map((server) => server.stop())));

/** The built bundles (runTests.mjs builds first): the worker runs as the extension starts it. */
const DIST = path.join(__dirname, '..', '..', 'dist');

interface Listed {
  items: Array<{ id: string; content: string }>;
}

const contents = (listed: unknown) => (listed as Listed).items.map((m) => m.content).sort();

/** Makes the next sync of `replica` a whole copy, as a server whose store went back would. */
function forceWholeCopy(replica: string): void {
  const file = path.join(replica, 'replica.json');
  const state = JSON.parse(readFileSync(file, 'utf8')) as { position: { versions: number } };
  writeFileSync(file, JSON.stringify({ ...state, position: { ...state.position, versions: 1_000_000 } }));
}

it('a held replica opens its store once for its reads and syncs, reopens a copy another process wrote, and closes when idle', async () => {
  const { target, replica, send } = await replicaSetUp('engram-replica-held-');
  let opens = 0;
  const open = (dbPath: string) => (opens++, Engram.open({ dbPath, sqlWasmPath: SQL_WASM_PATH }));
  const held = new HeldReplica(replica, open, 300);
  await send('remember', { content: 'Incidents are reviewed on Thursdays' });
  assert.equal(outcome(await held.sync(target, 1000)), 'copied 1');
  for (let i = 0; i < 3; i++)
    assert.deepEqual(contents(await held.read(target, 'list', {})), ['Incidents are reviewed on Thursdays']);
  await send('remember', { content: 'The API gateway rejects bodies over 1 MiB' });
  assert.equal(outcome(await held.sync(target, 2000)), 'updated 1');
  assert.equal(outcome(await held.sync(target, 3000)), 'current 0');
  assert.deepEqual(contents(await held.read(target, 'list', {})), [
    'Incidents are reviewed on Thursdays',
    'The API gateway rejects bodies over 1 MiB',
  ]);
  assert.equal(opens, 2, "the whole copy's new store, then the replica's own, held from then on");

  // Another process writes a whole copy over the store this one holds open.
  await send('remember', { content: 'On-call hands over at 09:00 on Mondays' });
  forceWholeCopy(replica);
  const other = (dbPath: string) => Engram.open({ dbPath, sqlWasmPath: SQL_WASM_PATH });
  assert.equal(outcome(await syncReplica(target, replica, other, 4000)), 'copied 3');
  assert.deepEqual(
    contents(await held.read(target, 'list', {})),
    [
      'Incidents are reviewed on Thursdays',
      'On-call hands over at 09:00 on Mondays',
      'The API gateway rejects bodies over 1 MiB',
    ],
    'the read answers from the new copy, not from the replaced file',
  );
  assert.equal(opens, 3);

  await waitUntil(() => !held.isOpen, 10_000, 'the idle store to close');
  assert.equal((await held.read(target, 'stats', {})) !== undefined, true);
  assert.equal(held.isOpen, true, 'a read after the idle close opens it again');
  await held.close();
  assert.equal(held.isOpen, false);
});

it("the replica's worker thread syncs and answers reads, passes a read's error on, and ends when idle or closed", async () => {
  const { target, replica, send } = await replicaSetUp('engram-replica-thread-');
  const thread = new ReplicaThread({
    directory: replica,
    sqlWasmPath: SQL_WASM_PATH,
    clientName: 'test-replica',
    script: workerScriptsIn(DIST).replica,
    logger: silentLogger,
    idleMs: 300,
  });
  const { memory } = await send<{ memory: { id: string } }>('remember', {
    content: 'Schema changes need a second reviewer',
  });
  assert.equal(outcome(await thread.sync(target, 1000)), 'copied 1');
  await send('edit', { id: memory.id, changes: { content: 'Schema changes need two reviewers' } });
  assert.equal(outcome(await thread.sync(target, 2000)), 'updated 1');
  assert.deepEqual(contents(await thread.read(target, 'list', {})), ['Schema changes need two reviewers']);
  await assert.rejects(thread.read(target, 'get', { id: 'no-such-memory' }), (error: unknown) =>
    EngramError.is(error, 'NOT_FOUND'),
  );
  assert.equal(thread.running, true);
  await waitUntil(() => !thread.running, 10_000, 'the idle worker to end');
  assert.deepEqual(
    contents(await thread.read(target, 'list', {})),
    ['Schema changes need two reviewers'],
    'the next read starts another',
  );
  await thread.close();
  assert.equal(thread.running, false);
  const refused = await thread.sync({ ...target, token: 'engram_wrong' }, 3000);
  assert.equal(refused.kind, 'failed', 'a sync never throws: its failure is an outcome');
  await thread.close();
});
