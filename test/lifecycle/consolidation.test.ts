import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { termRarity, writeGist } from '../../engine/lifecycle/gist';
import { openTestHost } from '../support/host';
import type { TestHost } from '../support/host';

async function remember(t: TestHost, content: string): Promise<string> {
  const result = await t.call('remember', { content, layer: 'episodic', dedupe: false });
  return (result as { memory: { id: string } }).memory.id;
}

type Plan = {
  dryRun: boolean;
  clusters: Array<{ members: string[]; summary: string; confidence: number; importance: number }>;
  created: string[];
};

/* Issue 21, section 3: clusters of relevant episodes that share entities become one memory. */
describe('lifecycle: consolidation', () => {
  it('clusters recalled episodes by shared entities into one semantic memory; the members are superseded by it', async () => {
    const t = await openTestHost();
    const a = await remember(
      t,
      'The billing worker in src/billing/retry.ts retries invoices on timeout. It logs to stderr.',
    );
    const b = await remember(t, 'We moved the queue of src/billing/retry.ts to Redis last week.');
    const c = await remember(t, 'Redis keys for billing invoices expire after a day.');
    const apart = await remember(t, 'Caroline prefers webpack over vite for the docs site.');
    const once = await remember(t, 'The Redis dashboard lives in Grafana.');
    // Read twice each (a read counts as an access, as a recall's hits do); `once` only once.
    for (const id of [a, b, c, apart, a, b, c, apart, once]) await t.call('get', { id });
    const plan = (await t.call('consolidate', {})) as Plan;
    assert.equal(plan.dryRun, true);
    assert.equal(plan.clusters.length, 1, JSON.stringify(plan));
    const [cluster] = plan.clusters;
    assert.deepEqual([...cluster!.members].sort(), [a, b, c].sort());
    assert.ok(!cluster!.members.includes(apart) && !cluster!.members.includes(once));
    assert.equal(cluster!.confidence, 0.6);
    assert.ok(
      cluster!.summary.includes('src/billing/retry.ts') && cluster!.summary.includes('Redis'),
      cluster!.summary,
    );
    assert.ok(!cluster!.summary.includes('stderr'), 'a sentence that adds no entity is left out');

    const done = (await t.call('consolidate', { dryRun: false })) as Plan;
    assert.equal(done.created.length, 1);
    const made = (
      (await t.call('get', { id: done.created[0]!, readOnly: true })) as {
        memory: { layer: string; kind: string; trust: string; context: string };
      }
    ).memory;
    assert.deepEqual([made.layer, made.kind, made.trust], ['semantic', 'summary', 'consolidation']);
    assert.match(made.context, /^Consolidated from 3 memories/);
    for (const id of [a, b, c]) {
      const member = (
        (await t.call('get', { id, readOnly: true })) as { memory: { status: string; supersededBy: string } }
      ).memory;
      assert.deepEqual([member.status, member.supersededBy], ['superseded', done.created[0]]);
    }
    await t.host.close();
  });

  it("weights each entity of the consolidated memory's text with the sum of its members' weights", async () => {
    const t = await openTestHost();
    const a = await remember(t, 'Redis holds the billing queue of src/billing/retry.ts. It logs to stderr.');
    const b = await remember(t, 'We moved the queue of src/billing/retry.ts to Redis last week.');
    const c = await remember(t, 'Redis keys for billing invoices expire after a day.');
    for (const id of [a, b, c, a, b, c]) await t.call('get', { id });
    const links = (ids: string[]) =>
      t.host.store.read((r) =>
        r.all<{ name: string; weight: number }>(
          `SELECT e.name AS name, me.weight AS weight FROM memory_entities me JOIN entities e ON e.id = me.entity_id
           WHERE me.memory_id IN (${ids.map(() => '?').join(', ')}) ORDER BY e.name`,
          ids,
        ),
      );
    const memberLinks = links([a, b, c]);
    assert.equal(memberLinks.filter((l) => l.name === 'Redis').length, 3, JSON.stringify(memberLinks));
    const expected = new Map<string, number>();
    for (const link of memberLinks) expected.set(link.name, (expected.get(link.name) ?? 0) + link.weight);

    const done = (await t.call('consolidate', { dryRun: false })) as Plan;
    assert.equal(done.created.length, 1, JSON.stringify(done));
    const got = links([done.created[0]!]);
    assert.ok(
      got.some((l) => l.name === 'Redis'),
      JSON.stringify(got),
    );
    for (const { name, weight } of got)
      assert.ok(Math.abs(weight - (expected.get(name) ?? 0)) < 1e-9, `${name}: ${weight}`);
    await t.host.close();
  });

  it('summarises with the informative sentences, quoting their members, a repeated label parenthetical once', () => {
    const members = [
      { id: 'a', content: 'Ann (8 May): Hey Bo! Good to see you!' },
      { id: 'b', content: 'Bo (8 May): I ran a charity marathon in Lisbon on Saturday.' },
      { id: 'c', content: 'Ann (8 May): Wow, good to see you!' },
    ];
    const filler = Array.from({ length: 8 }, (_, i) => `Ann (8 May): good to see you ${i}`);
    const gist = writeGist(members, termRarity([...members.map((m) => m.content), ...filler]));
    assert.equal(gist.text, 'Bo (8 May): I ran a charity marathon in Lisbon on Saturday.');
    assert.deepEqual(gist.quoted, ['b']);
  });

  it("keeps the sentences naming the cluster's entities, numbers, dates and names, in the members' order", () => {
    const members = [
      { id: 'a', content: 'Ann: Thanks, that is so good to hear. The Redis cache is good too.' },
      {
        id: 'b',
        content: 'Bo: Haha yes, so good. We adopted Biscuit from the Oakridge shelter on 14 March 2021.',
      },
      { id: 'c', content: 'Ann: Love that, so good!' },
      { id: 'd', content: 'Bo: The vet bill came to 380 dollars after the Hollister surgery.' },
    ];
    const filler = Array.from(
      { length: 20 },
      (_, i) => `Ann: that is so good to hear, thanks ${i % 2 ? 'yes' : 'haha'}`,
    );
    const gist = writeGist(members, termRarity([...members.map((m) => m.content), ...filler]), ['Redis']);
    assert.equal(
      gist.text,
      'Ann: The Redis cache is good too. Bo: We adopted Biscuit from the Oakridge shelter on 14 March 2021. ' +
        'The vet bill came to 380 dollars after the Hollister surgery.',
    );
    assert.deepEqual(gist.quoted, ['a', 'b', 'd']);
  });

  it('keeps a sentence for an entity it names as a word, not for one inside another word', () => {
    const members = [
      { id: 'a', content: 'Ann: Max loved it so much.' },
      { id: 'b', content: 'Bo: That is the maximum, so good.' },
      { id: 'c', content: 'Ann: Max-the-dog is so good.' },
    ];
    const filler = Array.from(
      { length: 20 },
      (_, i) => `Ann: that is so good, it loved it ${i % 2 ? 'yes' : 'haha'}`,
    );
    const gist = writeGist(members, termRarity([...members.map((m) => m.content), ...filler]), ['Max']);
    assert.deepEqual(gist.quoted, ['a', 'c']);
  });
});
