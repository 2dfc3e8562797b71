import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openTestHost, useLiteProvider } from '../support/host';
import type { TestHost } from '../support/host';

type Plan = { clusters: Array<{ reason: string; members: string[] }> };

/** A: the retry worker by its file; B shares the file, on another subject; C says what A says, naming Stripe, not the file; D shares Stripe, on another subject. */
const TEXTS = {
  a: 'The billing worker in src/billing/retry.ts retries invoices on timeout.',
  b: 'We moved the queue of src/billing/retry.ts to Redis last week.',
  c: 'The billing worker of Stripe retries invoices on timeout.',
  d: 'Stripe webhooks arrive at the /api/hooks endpoint.',
};

async function relevantClusters(t: TestHost): Promise<string[][]> {
  const ids: Record<string, string> = {};
  for (const [name, content] of Object.entries(TEXTS))
    ids[name] = (await t.call('remember', { content, layer: 'episodic', dedupe: false })).memory.id;
  for (const id of [...Object.values(ids), ...Object.values(ids)]) await t.call('get', { id });
  const names = new Map(Object.entries(ids).map(([name, id]) => [id, name]));
  const plan = (await t.call('consolidate', {})) as Plan;
  return plan.clusters
    .filter((c) => c.reason === 'relevant')
    .map((c) => c.members.map((id) => names.get(id)!).sort())
    .sort();
}

/* Issue 21, section 3.2: entity clusters refined by embedding similarity where vectors exist (seed 003). */
describe('lifecycle: consolidation clusters refined by similarity', () => {
  it('with vectors: members sharing an entity but unlike each other split, like members without one join', async () => {
    const t = await openTestHost({ embedding: useLiteProvider() });
    const clusters = await relevantClusters(t);
    const embedded = t.host.store.read((r) => r.value<number>('SELECT count(*) FROM memory_vectors'));
    assert.equal(embedded, 4, 'every memory has its vector');
    // a-b and c-d share an entity with cosine 0.44 and 0.28 (USE-lite); a-c share none, cosine 0.87.
    assert.deepEqual(clusters, [['a', 'c']]);
    await t.host.close();
  });

  it('without vectors: the entity clusters, as before', async () => {
    const t = await openTestHost();
    assert.deepEqual(await relevantClusters(t), [
      ['a', 'b'],
      ['c', 'd'],
    ]);
    await t.host.close();
  });
});
