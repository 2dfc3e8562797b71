import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, it } from 'node:test';
import { syncReplica } from '../../engine/teamClient/teamReplica';
import { bundledFixture } from '../support/fixtureBundle';
import { outcome, replicaSetUp, servers } from './replicaSetUp';
import { teamEnv } from './teamServerProcess';

after(() => Promise.all(servers.map((server) => server.stop())));

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'replicaSyncKilled.ts');

interface Listed {
  items: Array<{ id: string }>;
}

it('a sync killed between two pages leaves the replica where its content is, and the next goes on from there', async () => {
  const { target, replica, open, send, inReplica } = await replicaSetUp('engram-replica-crash-');
  const batch = async (prefix: string, count: number) =>
    (
      await send<Array<{ memory: { id: string } }>>('rememberMany', {
        memories: Array.from({ length: count }, (_, i) => ({
          content: `${prefix} step ${i + 1} of the runbook`,
        })),
      })
    ).map((m) => m.memory.id);
  const first = await batch('Restore', 10);
  assert.equal(outcome(await syncReplica(target, replica, open, 1000)), 'copied 10');
  const second = await batch('Failover', 20);

  // Pages of 5 memory rows (and 5 events): the child is killed once the third page committed.
  const child = spawnSync(process.execPath, [bundledFixture(FIXTURE), target.url, replica, '5', '3'], {
    encoding: 'utf8',
    env: teamEnv({ ENGRAM_TEAM_TOKEN: target.token }),
  });
  assert.equal(child.signal, 'SIGKILL', `the child was killed mid-sync: ${child.stdout}${child.stderr}`);

  const ids = (listed: unknown) => (listed as Listed).items.map((m) => m.id).sort();
  assert.deepEqual(
    await inReplica(async (engram) => ids(await engram.call('list', { limit: 100 }))),
    [...first, ...second.slice(0, 15)].sort(),
    'the three pages it applied, and nothing of the fourth',
  );
  assert.equal(
    outcome(await syncReplica(target, replica, open, 2000, 5)),
    'updated 5',
    'the next sync copies only what the killed one had not applied',
  );
  assert.deepEqual(
    await inReplica(async (engram) => ids(await engram.call('list', { limit: 100 }))),
    [...first, ...second].sort(),
  );
});
