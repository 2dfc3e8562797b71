import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runConsolidation, SLICE_MEMBERS } from '../../engine/lifecycle/consolidationRun';
import { openTestHost } from '../support/host';
import { episode } from './episodes';

const DAY = 24 * 60 * 60 * 1000;

/*
 * Issue 21, section 3 ("bounded in time per slice") and section 6 (the host's thread never blocked
 * more than 50 ms): the deadline is checked between clusters, and a large cluster is slow, so a
 * slice that took several large clusters before its deadline ran 134 ms at 100k memories. A slice
 * takes the next cluster only while its members stay within `SLICE_MEMBERS`.
 */
describe('lifecycle: consolidation slices are bounded by members', () => {
  it('never puts more than SLICE_MEMBERS members in a slice of several clusters, however long the slice may take', async () => {
    const t = await openTestHost();
    // Faded sessions of 20 episodes each: five clusters, 100 members.
    const sessions = 5;
    const perSession = 20;
    for (let s = 0; s < sessions; s++)
      for (let i = 0; i < perSession; i++)
        await episode(t, `In week ${s} the team shipped change ${s}-${i} to the parser.`, `week-${s}`);
    t.clock.advance(60 * DAY);
    const superseded = () =>
      t.host.store.read(
        (r) =>
          r.value<number>(
            "SELECT count(*) FROM memories WHERE superseded_at IS NULL AND status = 'superseded'",
          ) ?? 0,
      );
    const perSlice: number[] = [];
    let before = 0;
    const run = await runConsolidation(t.host.store, {
      dryRun: false,
      // A deadline never reached: only the member bound ends a slice.
      sliceMs: 60_000,
      afterSlice: () => {
        const now = superseded();
        perSlice.push(now - before);
        before = now;
      },
    });
    assert.equal(run.clusters.length, sessions, JSON.stringify(run.clusters.map((c) => c.members.length)));
    assert.equal(run.touched, sessions * perSession);
    assert.deepEqual(
      perSlice.reduce((sum, n) => sum + n, 0),
      sessions * perSession,
    );
    for (const members of perSlice) assert.ok(members <= SLICE_MEMBERS, `slices of ${perSlice.join(', ')}`);
    assert.equal(run.slices, Math.ceil(sessions / Math.floor(SLICE_MEMBERS / perSession)));
    await t.host.close();
  });
});
