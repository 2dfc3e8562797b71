import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openTestHost } from '../support/host';
import type { TestHost } from '../support/host';

const DAY = 24 * 60 * 60 * 1000;
const BOT = { agent: 'bot' };

async function remember(t: TestHost, content: string, extra: Record<string, unknown> = {}): Promise<string> {
  const result = await t.call('remember', { content, layer: 'episodic', actor: BOT, ...extra });
  return (result as { memory: { id: string } }).memory.id;
}

/** The memory as it is, read without noting an access (a read would make it fresh again). */
async function current(t: TestHost, id: string): Promise<{ status: string; statusReason: string | null }> {
  return (
    (await t.call('get', { id, readOnly: true })) as {
      memory: { status: string; statusReason: string | null };
    }
  ).memory;
}

/*
 * Issue 21, section 1: what has faded is archived (never deleted, recoverable), each with its
 * reason, and `explain` says why a memory is kept or would go.
 */
describe('lifecycle: archive what has faded', () => {
  it('archives old, unread episodes only; a dry run plans the same and changes nothing', async () => {
    const t = await openTestHost();
    const faded = await remember(t, 'Deployed the billing service to staging on Friday afternoon.');
    const pinned = await remember(t, 'Rotated the staging TLS certificate by hand.');
    await t.call('pin', { id: pinned });
    const knowledge = await remember(t, 'The billing service retries invoices three times.', {
      layer: 'semantic',
    });
    const read = await remember(t, 'Zeppelin hangar keys are under the mat.');
    const alsoFaded = await remember(t, 'We paused the release train for the holidays.', { actor: {} });
    for (let i = 0; i < 3; i++) {
      t.clock.advance(DAY);
      await t.call('recall', { query: 'zeppelin hangar keys', k: 1 });
    }
    t.clock.advance(120 * DAY);
    const young = await remember(t, 'Moved the nightly job to 02:00.');
    t.clock.advance(DAY);

    const why = (await t.call('explain', { id: faded })) as {
      archive: { due: boolean; unmet: string[] };
      importance: { score: number; factors: Array<{ factor: string }> };
    };
    assert.deepEqual(why.archive, { due: true, unmet: [] });
    assert.equal(why.importance.factors.length, 8);
    const kept = (await t.call('explain', { id: read })) as { archive: { due: boolean; unmet: string[] } };
    assert.equal(kept.archive.due, false);
    assert.ok(
      kept.archive.unmet.some((u) => u.startsWith('recalled 3 times')),
      JSON.stringify(kept),
    );

    const plan = (await t.call('lifecycle', {})) as {
      dryRun: boolean;
      archived: Array<{ memoryId: string }>;
    };
    assert.equal(plan.dryRun, true);
    assert.deepEqual(plan.archived.map((a) => a.memoryId).sort(), [faded, alsoFaded].sort());
    assert.equal((await current(t, faded)).status, 'active');

    const run = (await t.call('lifecycle', { dryRun: false })) as {
      archived: Array<{ memoryId: string; reason: string }>;
    };
    assert.deepEqual(run.archived.map((a) => a.memoryId).sort(), [faded, alsoFaded].sort());
    for (const id of [pinned, knowledge, read, young])
      assert.equal((await current(t, id)).status, 'active', id);
    const archived = await current(t, faded);
    assert.equal(archived.status, 'archived');
    assert.match(archived.statusReason ?? '', /^faded: 12\d days old/);
    const { hits } = (await t.call('recall', { query: 'billing staging Friday', k: 5 })) as {
      hits: Array<{ memory: { id: string } }>;
    };
    assert.ok(!hits.some((h) => h.memory.id === faded), 'out of recall');
    const events = (await t.call('events', { types: ['archive', 'lifecycle'] })) as {
      events: Array<{ type: string; memoryId: string | null }>;
    };
    assert.deepEqual(
      events.events.map((e) => e.type),
      ['archive', 'archive', 'lifecycle'],
    );
    await t.call('restore', { id: faded });
    assert.equal((await current(t, faded)).status, 'active');
    await t.host.close();
  });
});
