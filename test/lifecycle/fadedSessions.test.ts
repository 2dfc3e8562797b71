import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openTestHost } from '../support/host';
import type { TestHost } from '../support/host';
import { episode } from './episodes';

const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;

type Plan = { clusters: Array<{ reason: string; members: string[] }> };

async function fadedGroups(t: TestHost): Promise<string[][]> {
  const plan = (await t.call('consolidate', {})) as Plan;
  return plan.clusters.filter((c) => c.reason === 'faded').map((c) => [...c.members].sort());
}

/* Issue 21, section 3: episodes whose retention fell below half become their session's gist. */
describe('lifecycle: faded sessions', () => {
  it('groups faded episodes by session, and those without one by 30-minute bursts; fresh ones stay', async () => {
    const t = await openTestHost();
    const s1 = [
      await episode(t, 'Ann booked the flight to Lisbon for the conference.', 's1'),
      await episode(t, 'The hotel near the venue costs 140 euros a night.', 's1'),
    ];
    const s2 = [
      await episode(t, 'Bo repaired the garden fence on Sunday.', 's2'),
      await episode(t, 'The fence needed twelve new planks.', 's2'),
    ];
    t.clock.advance(5 * MINUTE);
    const burstA = [
      await episode(t, 'The staging database was restored from the backup.'),
      await episode(t, 'Restoring staging took forty minutes.'),
    ];
    t.clock.advance(3 * 60 * MINUTE);
    const burstB = [
      await episode(t, 'The release notes for version 4.2 were published.'),
      await episode(t, 'Version 4.2 drops support for Node 18.'),
    ];
    const alone = await episode(t, 'A single faded episode of its own session.', 's3');
    t.clock.advance(90 * DAY);
    const fresh = await episode(t, 'Ann also booked a train back from Porto.', 's1');

    const groups = await fadedGroups(t);
    assert.deepEqual(
      groups.sort((a, b) => a[0]!.localeCompare(b[0]!)),
      [s1, s2, burstA, burstB].map((g) => [...g].sort()).sort((a, b) => a[0]!.localeCompare(b[0]!)),
    );
    const grouped = groups.flat();
    assert.ok(!grouped.includes(fresh), 'a fresh episode of a faded session is not consolidated');
    assert.ok(!grouped.includes(alone), 'a lone faded episode has no one to be consolidated with');
    await t.host.close();
  });

  it('cuts a long session into groups of at most 50, in time order', async () => {
    const t = await openTestHost();
    const ids: string[] = [];
    for (let i = 0; i < 120; i++) {
      const [result] = await t.call('rememberMany', {
        memories: [
          { content: `Turn ${i}: we talked about item number ${i * 7}.`, layer: 'episodic', dedupe: false },
        ],
        actor: { session: 'long' },
      });
      if (result?.outcome === 'rejected') assert.fail(`turn ${i} was rejected`);
      ids.push(result!.memory.id);
      t.clock.advance(MINUTE);
    }
    t.clock.advance(90 * DAY);
    const plan = (await t.call('consolidate', {})) as Plan;
    const faded = plan.clusters.filter((c) => c.reason === 'faded');
    assert.deepEqual(
      faded.map((c) => c.members),
      [ids.slice(0, 50), ids.slice(50, 100), ids.slice(100)],
    );
    await t.host.close();
  });

  it('follows the configured retention: no faded session with decay off, sooner with a shorter half-life', async () => {
    const t = await openTestHost();
    const session = [
      await episode(t, 'Cy moved the weekly sync to Thursday mornings.', 's1'),
      await episode(t, 'The sync now starts at nine and lasts half an hour.', 's1'),
    ];
    t.clock.advance(10 * DAY);
    assert.deepEqual(await fadedGroups(t), [], 'ten days old: not faded under the default half-life');
    await t.call('configureLifecycle', { halfLifeDays: 2 });
    assert.deepEqual(await fadedGroups(t), [[...session].sort()], 'faded under a two-day half-life');
    t.clock.advance(200 * DAY);
    await t.call('configureLifecycle', { decay: false });
    assert.deepEqual(await fadedGroups(t), [], 'decay off: nothing fades, so nothing is merged as faded');
    await t.host.close();
  });
});
