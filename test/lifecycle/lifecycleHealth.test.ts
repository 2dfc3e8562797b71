import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LifecycleHealth } from '../../engine/api/healthMethods';
import { DUPLICATES_RECOUNT_MS, duplicatesPending } from '../../engine/api/duplicatesPending';
import { openTestHost, useLiteProvider } from '../support/host';
import type { TestHost } from '../support/host';

const DAY = 24 * 60 * 60 * 1000;
const BOT = { agent: 'bot' };

async function remember(t: TestHost, content: string, extra: Record<string, unknown> = {}): Promise<string> {
  const result = await t.call('remember', { content, layer: 'episodic', actor: BOT, ...extra });
  return (result as { memory: { id: string } }).memory.id;
}

const health = (t: TestHost): Promise<LifecycleHealth> => t.call('lifecycleHealth', {});

/* Issue 21, section 5: the Analytics tab's Lifecycle/Health section, from one engine method. */
describe('lifecycle health', () => {
  it('is empty on a new database, with nothing to count duplicates with', async () => {
    const t = await openTestHost();
    const h = await health(t);
    assert.equal(h.retention.memories, 0);
    assert.ok(h.retention.bins.every((b) => b.memories === 0 && b.meanRetention === null));
    assert.deepEqual(
      [h.archived, h.promoted, h.runs],
      [{ total: 0, recent: 0 }, { total: 0, recent: 0 }, []],
    );
    assert.deepEqual(h.quality, { active: 0, recalled: 0, share: null });
    assert.deepEqual(h.duplicates, {
      pairs: null,
      countedAt: null,
      stale: false,
      reason: 'counted once the embedding model has loaded (engram.embedding)',
    });
    await t.host.close();
  });

  it('follows memories as time passes: retention by idle age, archived, promoted, runs, recalled share', async () => {
    const t = await openTestHost();
    const old = [
      await remember(t, 'Deployed the billing service to staging on Friday afternoon.'),
      await remember(t, 'We paused the release train for the holidays.'),
    ];
    await remember(t, 'Zeppelin hangar keys are under the mat.');
    await remember(t, 'The billing service retries invoices three times.', { layer: 'semantic' });
    for (let i = 0; i < 3; i++) {
      t.clock.advance(DAY);
      await t.call('recall', { query: 'zeppelin hangar keys', k: 1 });
    }
    t.clock.advance(120 * DAY);
    await remember(t, 'Moved the nightly job to 02:00.', { layer: 'working' });
    t.clock.advance(2 * DAY);

    const before = await health(t);
    // Idle 122 days: the 90-180 bin (the two faded, and the recalled one, idle 120 days since).
    const bin = (from: number) => before.retention.bins.find((b) => b.fromDays === from)!;
    assert.equal(before.retention.memories, 4, 'working and episodic only');
    assert.equal(bin(90).memories, 3);
    assert.equal(bin(1).memories, 1, 'the working note, two days old');
    assert.ok(bin(1).meanRetention! > bin(90).meanRetention!, JSON.stringify(before.retention));
    assert.equal(bin(0).meanRetention, null);
    // All three have faded below 0.15 (three recalls add 0.14); the recalled one is kept by the
    // archive rule's access count, not by its retention.
    assert.equal(before.retention.belowArchive, 3);
    assert.deepEqual(before.quality, { active: 5, recalled: 1, share: 0.2 });

    await t.call('lifecycle', { dryRun: false });
    const after = await health(t);
    assert.deepEqual(after.archived, { total: 2, recent: 2 });
    // The working note was kept as an episode when its session was swept, before the run.
    assert.deepEqual(after.promoted, { total: 1, recent: 1 });
    assert.equal(after.runs.length, 1);
    assert.deepEqual(
      { ...after.runs[0]!, at: undefined },
      { at: undefined, promoted: 0, archived: 2, considered: 2, consolidated: 0, superseded: 0, merged: 0 },
    );
    assert.equal(after.runs[0]!.at, t.clock.read());
    assert.deepEqual(after.quality, { active: 3, recalled: 1, share: 0.333 });

    // Restoring one takes it out of "archived now"; the archive event stays counted as recent.
    await t.call('restore', { id: old[0] });
    t.clock.advance(31 * DAY);
    const later = await health(t);
    assert.deepEqual(later.archived, { total: 1, recent: 0 });
    assert.deepEqual(later.promoted, { total: 1, recent: 0 });
    await t.host.close();
  });

  it('counts the pairs dedup would merge once vectors are loaded, and recounts only after a change and a while', async () => {
    const t = await openTestHost({ embedding: useLiteProvider() });
    const say = (content: string) => t.call('remember', { content, dedupe: false });
    await say('The deploy script pushes the image to the staging registry.');
    await say('The deploy script pushes the image to the staging registry!');
    await say('Ticket 101 tracks the flaky upload test.');
    await t.call('dedup', {}); // loads the model, as any embedding use would
    const first = (await health(t)).duplicates;
    assert.deepEqual(first, { pairs: 1, countedAt: t.clock.read(), stale: false });

    await say('Ticket 101 tracks the flaky upload test!');
    t.clock.advance(60_000);
    assert.deepEqual((await health(t)).duplicates, { ...first, stale: true }, 'cached: changed, not yet due');
    t.clock.advance(DUPLICATES_RECOUNT_MS);
    assert.deepEqual((await health(t)).duplicates, { pairs: 2, countedAt: t.clock.read(), stale: false });
    await t.host.close();
  });

  it('does not count past a size, where planning would hold up the engine, and says what to run', async () => {
    const t = await openTestHost({ embedding: useLiteProvider() });
    await t.call('remember', { content: 'The nightly job runs at two.' });
    await t.call('remember', { content: 'The weekly report goes out on Monday.' });
    await t.call('dedup', {});
    assert.deepEqual(await duplicatesPending(t.host.engine, 1), {
      pairs: null,
      countedAt: null,
      stale: false,
      reason: 'not counted above 1 memories (2): run engram dedup',
    });
    assert.deepEqual(await duplicatesPending(t.host.engine, 2), {
      pairs: 0,
      countedAt: t.clock.read(),
      stale: false,
    });
    await t.host.close();
  });
});
