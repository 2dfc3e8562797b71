import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { engram } from '../cli/engramCli';
import { openTestHost } from '../support/host';
import { tempDir } from '../support/temp';
import type { TestHost } from '../support/host';

const DAY = 24 * 60 * 60 * 1000;
const BOT = { agent: 'bot' };

async function remember(t: TestHost, content: string): Promise<string> {
  const result = await t.call('remember', { content, layer: 'episodic', actor: BOT });
  return (result as { memory: { id: string } }).memory.id;
}

async function archivedBy(t: TestHost, dryRun = true): Promise<string[]> {
  const run = (await t.call('lifecycle', { dryRun })) as { archived: Array<{ memoryId: string }> };
  return run.archived.map((a) => a.memoryId).sort();
}

/*
 * Issue 21, section 1: the retention and archive settings, with the seeds' defaults, reach the
 * lifecycle run, are kept in the database (every process hosting it archives by them) and refuse
 * a bad value in one line that names it.
 */
describe('lifecycle settings', () => {
  it('archives by the configured rule: a shorter age, more accesses, no decay', async () => {
    const t = await openTestHost();
    const faded = await remember(t, 'Deployed the billing service to staging on Friday afternoon.');
    const read = await remember(t, 'Zeppelin hangar keys are under the mat.');
    for (let i = 0; i < 3; i++) {
      t.clock.advance(DAY);
      await t.call('recall', { query: 'zeppelin hangar keys', k: 1 });
    }
    t.clock.advance(60 * DAY);
    assert.deepEqual(await t.call('lifecycleSettings', {}), {
      decay: true,
      halfLifeDays: 30,
      curve: 'huber',
      kappa: 2,
      archiveAfterDays: 90,
      archiveBelowRetention: 0.15,
      archiveBelowImportance: 0.3,
      archiveUnderAccesses: 3,
      consolidateInBackground: false,
      intervalMinutes: 15,
    });
    assert.deepEqual(await archivedBy(t), [], 'the seeds: not before 90 days');

    await t.call('configureLifecycle', { archiveAfterDays: 30 });
    assert.deepEqual(await archivedBy(t), [faded], 'after 30 days; the recalled one is kept');
    const why = (await t.call('explain', { id: read })) as { archive: { unmet: string[] } };
    assert.deepEqual(
      why.archive.unmet.map((u) => u.replace(/[\d.]+ >=/, 'N >=')),
      ['importance N >= 0.3', 'recalled 3 times (archived under 3)'],
    );

    await t.call('configureLifecycle', { archiveUnderAccesses: 5, archiveBelowImportance: 0.6 });
    assert.deepEqual(await archivedBy(t), [faded, read].sort());

    await t.call('configureLifecycle', { decay: false });
    assert.deepEqual(await archivedBy(t), [], 'nothing fades');
    const kept = (await t.call('explain', { id: faded })) as { retention: number };
    assert.equal(kept.retention, 1);

    await t.call('configureLifecycle', { decay: true, curve: 'exponential', halfLifeDays: 365 });
    assert.deepEqual(await archivedBy(t), [], 'a year-long half-life keeps them retained');
    await t.call('configureLifecycle', { halfLifeDays: 5 });
    assert.deepEqual(await archivedBy(t, false), [faded, read].sort(), 'a real run archives them');
    for (const id of [faded, read]) {
      const { memory } = (await t.call('get', { id, readOnly: true })) as { memory: { status: string } };
      assert.equal(memory.status, 'archived', id);
    }
    await t.host.close();
  });

  it('keeps the settings in the database: the next host of it archives by them', async () => {
    const first = await openTestHost();
    const faded = await remember(first, 'Paused the release train for the holidays.');
    const changed = await first.call('configureLifecycle', { archiveAfterDays: 20, kappa: 3 });
    assert.equal(changed.changed, true);
    assert.equal((await first.call('configureLifecycle', { archiveAfterDays: 20 })).changed, false);
    const { events } = await first.call('events', { types: ['lifecycle-settings'] });
    assert.equal(events.length, 1, 'a change that changes nothing records nothing');
    await first.host.close();

    const clock = first.clock;
    clock.advance(40 * DAY);
    const next = await openTestHost({ dbPath: first.dbPath, clock });
    assert.equal((await next.call('lifecycleSettings', {})).archiveAfterDays, 20);
    assert.deepEqual(await archivedBy(next), [faded]);
    await next.host.close();
  });

  it('refuses a bad value in one line naming the setting, and changes nothing', async () => {
    const t = await openTestHost();
    for (const [params, message] of [
      [{ halfLifeDays: 0 }, /^halfLifeDays must be a number from 0\.01 to 36500; got 0$/],
      [{ curve: 'linear' }, /^curve must be one of exponential, huber, elastic; got "linear"$/],
      [{ archiveBelowRetention: 2 }, /^archiveBelowRetention must be a number from 0 to 1; got 2$/],
      [
        { archiveUnderAccesses: 2.5 },
        /^archiveUnderAccesses must be a whole number from 0 to 1000000; got 2.5$/,
      ],
      [{ decay: 'no' }, /^decay must be true or false; got "no"$/],
    ] as const) {
      await assert.rejects(
        t.call('configureLifecycle', { kappa: 4, ...params }),
        (error: Error) => message.test(error.message) && !error.message.includes('\n'),
        JSON.stringify(params),
      );
    }
    assert.equal((await t.call('lifecycleSettings', {})).kappa, 2);
    await t.host.close();
  });

  it('are shown and changed by `engram lifecycle-settings`, a wrong key or value refused in one line', async () => {
    const dir = tempDir();
    const set = await engram(dir, [
      'lifecycle-settings',
      '--set',
      'archiveAfterDays=45',
      'curve=elastic',
      'decay=false',
    ]);
    assert.equal(set.code, 0, set.err);
    const shown = await engram(dir, ['lifecycle-settings']);
    assert.match(shown.out, /^archiveAfterDays +45$/m);
    assert.match(shown.out, /^curve +elastic$/m);
    assert.match(shown.out, /^decay +false$/m);
    assert.match(shown.out, /^halfLifeDays +30$/m);
    const badKey = await engram(dir, ['lifecycle-settings', '--set', 'halfLife=3']);
    assert.notEqual(badKey.code, 0);
    assert.match(badKey.err, /--set: no lifecycle setting "halfLife"/);
    const badValue = await engram(dir, ['lifecycle-settings', '--set', 'kappa=-1']);
    assert.notEqual(badValue.code, 0);
    assert.match(badValue.err, /kappa must be a number from 0 to 100; got -1/);
    assert.equal(badValue.err.trim().split('\n').length, 1, badValue.err);
  });
});
