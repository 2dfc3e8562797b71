import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openTestHost, useLiteProvider } from '../support/host';
import type { TestHost } from '../support/host';

async function remember(t: TestHost, content: string, extra: Record<string, unknown> = {}): Promise<string> {
  // dedupe: false writes restatements apart, as memories from before the merge rule or another host would be.
  const result = await t.call('remember', { content, dedupe: false, ...extra });
  return (result as { memory: { id: string } }).memory.id;
}

type Dedup = {
  dryRun: boolean;
  merged: number;
  pairs: Array<{ keep: string; merge: string; similarity: number }>;
};

/* Issue 21, section 3.5: near-duplicates merged, the more important kept, a dry run first. */
describe('lifecycle: dedup', () => {
  it('pairs restatements only (not a different number), merges them into the more important one, keeps history', async () => {
    const t = await openTestHost({ embedding: useLiteProvider() });
    const kept = await remember(t, 'The deploy script pushes the image to the staging registry.', {
      importance: 0.9,
      tags: ['deploy'],
    });
    const restated = await remember(t, 'The deploy script pushes the image to the staging registry!', {
      tags: ['registry'],
    });
    const ticket = await remember(t, 'Ticket 101 tracks the flaky upload test.');
    const other = await remember(t, 'Ticket 102 tracks the flaky upload test.');

    const plan = (await t.call('dedup', {})) as Dedup;
    assert.equal(plan.dryRun, true);
    assert.deepEqual(
      plan.pairs.map((p) => [p.keep, p.merge]),
      [[kept, restated]],
      JSON.stringify(plan),
    );
    assert.ok(plan.pairs[0]!.similarity >= 0.92);
    const status = async (id: string) =>
      (
        (await t.call('get', { id, readOnly: true })) as {
          memory: { status: string; tags: string[]; confirmations: number };
        }
      ).memory;
    assert.equal((await status(restated)).status, 'active', 'a dry run changes nothing');

    const done = (await t.call('dedup', { dryRun: false })) as Dedup;
    assert.equal(done.merged, 1);
    assert.equal((await status(restated)).status, 'superseded');
    const survivor = await status(kept);
    assert.deepEqual(survivor.tags.sort(), ['deploy', 'registry']);
    assert.equal(survivor.confirmations, 2);
    for (const id of [ticket, other]) assert.equal((await status(id)).status, 'active');
    await assert.rejects(t.call('dedup', { threshold: 2 }), /threshold/);
    await t.host.close();
  });

  it('says in one line that it needs an embedding model', async () => {
    const t = await openTestHost();
    await assert.rejects(t.call('dedup', {}), /^EngramError: dedup needs an embedding model/);
    await t.host.close();
  });
});
