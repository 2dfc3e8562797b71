import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CLUSTER_RULE } from '../../engine/lifecycle/candidateClusters';
import { openTestHost } from '../support/host';
import type { TestHost } from '../support/host';
import { episode } from './episodes';

type Plan = { clusters: Array<{ reason: string; members: string[]; summary: string }> };

/** Episodes read twice each, so that they are relevant candidates (recalled, linked to entities). */
async function relevantEpisodes(t: TestHost, texts: ReadonlyArray<[string, string?]>): Promise<string[]> {
  const ids: string[] = [];
  for (const [content, session] of texts) ids.push(await episode(t, content, session));
  for (const id of [...ids, ...ids]) await t.call('get', { id });
  t.host.store.flushReads();
  return ids;
}

async function relevantPlan(t: TestHost): Promise<Plan['clusters']> {
  const plan = (await t.call('consolidate', {})) as Plan;
  return plan.clusters.filter((c) => c.reason === 'relevant');
}

/*
 * Issue 21, section 3.2-3.3: a consolidated memory stands for one coherent thing. On LongMemEval an
 * entity recurring in unrelated conversations chained them into a relevant cluster of 212 members
 * (a gist of 32,687 characters), and recall lost the sessions it swallowed.
 */
describe('lifecycle: consolidation clusters are bounded', () => {
  it('never puts two unrelated sessions in one cluster, though their episodes share an entity', async () => {
    const t = await openTestHost();
    const [a1, a2, b1, b2] = await relevantEpisodes(t, [
      ['We planned the trip to Lisbon with the billing team in src/billing/retry.ts.', 'session-a'],
      ['The retry in src/billing/retry.ts waits a minute before the next invoice.', 'session-a'],
      ['My sister asked whether src/billing/retry.ts is the file I keep talking about.', 'session-b'],
      ['She said src/billing/retry.ts sounds like a place, and laughed.', 'session-b'],
    ]);
    const clusters = (await relevantPlan(t)).map((c) => [...c.members].sort()).sort();
    assert.deepEqual(clusters, [[a1, a2].sort(), [b1, b2].sort()].sort());
    await t.host.close();
  });

  it('cuts a cluster past the size limit into parts of at most the limit, in time order', async () => {
    const t = await openTestHost();
    const size = 2 * CLUSTER_RULE.maxMembers + 10;
    // A chain: each episode names its own file and the next one's, so all are one entity cluster
    // while no entity is linked to more than two of them (none is too common to tell).
    const ids = await relevantEpisodes(
      t,
      Array.from({ length: size }, (_, i): [string] => [
        `The worker in src/step${i}.ts hands its queue to src/step${i + 1}.ts on retry.`,
      ]),
    );
    const clusters = await relevantPlan(t);
    assert.equal(clusters.length, 3, `${clusters.map((c) => c.members.length).join(', ')}`);
    for (const c of clusters) assert.ok(c.members.length <= CLUSTER_RULE.maxMembers, `${c.members.length}`);
    assert.deepEqual(
      clusters.flatMap((c) => c.members),
      ids,
      'every member in one part, the parts in time order',
    );
    await t.host.close();
  });
});
