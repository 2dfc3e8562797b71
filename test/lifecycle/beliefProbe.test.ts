import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BEFORE_CHANGE, scannedAfterChange } from '../drift/driftHost';

/* Issue 21, section 3.7: old beliefs are checked again by drift during the lifecycle run. */
describe('lifecycle: belief probing', () => {
  it('an old belief drift finds false loses half its importance and is flagged; one it confirms gains a confirmation', async () => {
    const { test } = await scannedAfterChange(
      { 'src/auth.ts': 'export function signIn() {}\n', 'src/keep.ts': 'export function keepMe() {}\n' },
      'Remove the auth module',
      { remove: ['src/auth.ts'] },
    );
    const remember = async (content: string) =>
      (await test.call('remember', { content, layer: 'semantic', validFrom: BEFORE_CHANGE, dedupe: false }))
        .memory.id;
    const gone = await remember('Sign-in is implemented in `src/auth.ts`.');
    const kept = await remember('The helper lives in `src/keep.ts`.');
    const claimless = await remember('We prefer small pull requests.');
    const before = (await test.call('explain', { id: gone })).importance.score;

    const plan = await test.call('lifecycle', {});
    assert.deepEqual([...plan.probes.planned].sort(), [gone, kept, claimless].sort());
    assert.deepEqual(plan.probes.probed, []);

    const run = await test.call('lifecycle', { dryRun: false });
    const outcome = (id: string) => run.probes.probed.find((p) => p.memoryId === id)?.outcome;
    assert.equal(outcome(gone), 'against', JSON.stringify(run.probes));
    assert.equal(outcome(kept), 'confirmed');
    assert.equal(outcome(claimless), 'unverifiable', 'recorded, so it does not head the next run again');
    const explained = await test.call('explain', { id: gone });
    assert.deepEqual(explained.importance.probe, { outcome: 'against', multiplier: 0.5 });
    assert.ok(
      Math.abs(explained.importance.score - before / 2) < 0.01,
      `${before} -> ${explained.importance.score}`,
    );
    const drift = await test.call('drift');
    assert.ok(
      drift.memories.some((m) => m.id === gone && m.suggestion !== null),
      'flagged where drift findings are',
    );
    const keptMemory = (await test.call('get', { id: kept, readOnly: true })).memory as {
      confirmations: number;
    };
    assert.equal(keptMemory.confirmations, 2);
    // Probed once per interval: the next run probes neither again.
    assert.deepEqual((await test.call('lifecycle', {})).probes.planned, []);
  });
});
