import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openTestHost } from '../support/host';
import type { TestHost } from '../support/host';

const DAY = 24 * 60 * 60 * 1000;

type Current = {
  memory: { status: string; supersededBy: string | null; statusReason: string | null; layer: string };
};

async function remember(t: TestHost, content: string, more: Record<string, unknown> = {}): Promise<string> {
  const result = await t.call('remember', { content, layer: 'episodic', dedupe: false, ...more });
  return (result as { memory: { id: string } }).memory.id;
}

async function current(t: TestHost, id: string): Promise<Current['memory']> {
  return ((await t.call('get', { id, readOnly: true })) as Current).memory;
}

/** Two faded episodes of one session, consolidated: their ids and the consolidated memory's. */
async function consolidatedSession(t: TestHost): Promise<{ members: string[]; made: string }> {
  const members = [
    await remember(t, 'Ann booked the flight to Lisbon for the conference.', { actor: { session: 'trip' } }),
    await remember(t, 'The hotel near the Lisbon venue costs 140 euros a night.', {
      actor: { session: 'trip' },
    }),
  ];
  t.clock.advance(90 * DAY);
  const done = (await t.call('consolidate', { dryRun: false })) as { created: string[] };
  assert.equal(done.created.length, 1);
  return { members, made: done.created[0]! };
}

async function footprint(t: TestHost, ids: string[]): Promise<string> {
  const events = (await t.call('events', {})) as { events: unknown[] };
  const histories = await Promise.all(ids.map((id) => t.call('history', { id })));
  return JSON.stringify({ events: events.events.length, histories });
}

/* Issue 21, section 3: every lifecycle step is reversible. */
describe('lifecycle: undoing a consolidation', () => {
  it('unconsolidate puts the members back in recall and supersedes the consolidated memory; twice is refused', async () => {
    const t = await openTestHost();
    const { members, made } = await consolidatedSession(t);
    const undone = await t.call('unconsolidate', { id: made });
    assert.deepEqual([undone.memoryId, [...undone.restored].sort()], [made, [...members].sort()]);
    for (const id of members)
      assert.deepEqual(
        [(await current(t, id)).status, (await current(t, id)).supersededBy],
        ['active', null],
      );
    const gist = await current(t, made);
    assert.equal(gist.status, 'superseded');
    assert.match(gist.statusReason ?? '', /^consolidation undone/);
    const { hits } = (await t.call('recall', { query: 'Lisbon hotel flight', k: 5, readOnly: true })) as {
      hits: Array<{ memory: { id: string } }>;
    };
    assert.deepEqual(hits.map((h) => h.memory.id).sort(), [...members].sort());

    const before = await footprint(t, [made, ...members]);
    await assert.rejects(
      () => t.call('unconsolidate', { id: made }),
      (error: Error) =>
        /is superseded .*not active: nothing to undo$/.test(error.message) && !error.message.includes('\n'),
    );
    assert.equal(await footprint(t, [made, ...members]), before, 'a refused undo changes nothing');
    await assert.rejects(() => t.call('unconsolidate', { id: members[0]! }), /is not a consolidated memory$/);
    await t.host.close();
  });

  it("Tidy Memory's undo (restore the archived, put the promoted back) still works beside a consolidation", async () => {
    const t = await openTestHost();
    const faded = await remember(t, 'Lunch was late on the day of the offsite.', {
      importance: 0,
      actor: { agent: 'a1' },
    });
    const { members, made } = await consolidatedSession(t);
    const note = await remember(t, 'Scratch: the flaky upload test needs a longer timeout.', {
      layer: 'working',
    });
    t.clock.advance(60 * 60 * 1000);
    // What engram.tidyMemory runs, then what its Undo button calls.
    const done = (await t.call('lifecycle', { dryRun: false })) as {
      promoted: Array<{ memoryId: string; from: string }>;
      archived: Array<{ memoryId: string }>;
    };
    assert.deepEqual(
      [done.archived.map((a) => a.memoryId), done.promoted.map((p) => p.memoryId)],
      [[faded], [note]],
    );
    for (const a of done.archived) await t.call('restore', { id: a.memoryId });
    for (const p of done.promoted) await t.call('edit', { id: p.memoryId, changes: { layer: p.from } });
    assert.equal((await current(t, faded)).status, 'active');
    assert.equal((await current(t, note)).layer, 'working');
    assert.equal((await current(t, made)).status, 'active', 'the consolidation is not touched by the undo');
    for (const id of members) assert.equal((await current(t, id)).status, 'superseded');
    await t.host.close();
  });
});
