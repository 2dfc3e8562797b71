import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openTestHost } from '../support/host';
import type { TestHost } from '../support/host';
import { episode } from './episodes';

const DAY = 24 * 60 * 60 * 1000;

async function recalled(t: TestHost, params: Record<string, unknown>): Promise<string[]> {
  const { hits } = (await t.call('recall', { k: 10, readOnly: true, ...params })) as {
    hits: Array<{ memory: { id: string } }>;
  };
  return hits.map((h) => h.memory.id);
}

/** Three episodes of one talk, each with one of the words of 'sunrise adoption marathon'. */
async function threeTalks(t: TestHost): Promise<string[]> {
  return [
    await episode(t, 'Melanie painted a sunrise over the lake with her kids in July.', 'talk'),
    await episode(t, 'Caroline is researching adoption agencies in Oregon for next spring.', 'talk'),
    await episode(t, 'Melanie ran a charity marathon in Lisbon for the local shelter.', 'talk'),
  ];
}

/** The one consolidated memory made 90 days later. */
async function consolidated(t: TestHost): Promise<string> {
  t.clock.advance(90 * DAY);
  const [made] = ((await t.call('consolidate', { dryRun: false })) as { created: string[] }).created;
  assert.ok(made);
  return made;
}

/* Issue 21 section 3, seed 003's drill-down: a consolidated hit opens onto its members on request. */
describe('recall: detail of a consolidated memory', () => {
  it('puts the matching members in its place, in their rank order, only when asked', async () => {
    const t = await openTestHost();
    const session = [
      await episode(t, 'Caroline went to the LGBTQ support group on 7 May 2023.', 'talk'),
      await episode(t, 'Melanie painted a sunrise over the lake last year.', 'talk'),
      await episode(
        t,
        'Caroline said the support group was inspiring: the support group helped her, the support group meets weekly.',
        'talk',
      ),
      await episode(t, 'Hey, so good to see you again!', 'talk'),
    ];
    t.clock.advance(90 * DAY);
    const done = (await t.call('consolidate', { dryRun: false })) as { created: string[] };
    const [made] = done.created;
    assert.ok(made);
    const plain = await episode(t, 'The support group newsletter is printed monthly.');

    const summary = await recalled(t, { query: 'support group', detail: false });
    assert.ok(summary.includes(made) && summary.includes(plain), JSON.stringify(summary));
    assert.ok(!session.some((id) => summary.includes(id)), 'no superseded member with detail false');

    const detailed = await recalled(t, { query: 'support group', detail: true });
    const everything = await recalled(t, { query: 'support group', includeInactive: true });
    const expected = everything.filter((id) => [session[0], session[2], plain].includes(id));
    assert.equal(expected.length, 3, JSON.stringify(everything));
    assert.deepEqual(detailed, expected, 'the matching members and the plain hit, in the history-wide order');
    assert.ok(!detailed.includes(made), 'the members stand in place of the consolidated memory');
    await t.host.close();
  });

  it('opens a consolidated memory ranked below k when one of its members ranks above the hits', async () => {
    const t = await openTestHost();
    const answer = await episode(
      t,
      'The support group meets weekly; the support group helped Caroline.',
      'talk',
    );
    for (const content of [
      'Melanie painted a sunrise over the lake with her kids in July.',
      'Caroline is researching adoption agencies in Oregon for next spring.',
      'Melanie ran a charity marathon in Lisbon for the local shelter.',
    ])
      await episode(t, content, 'talk');
    t.clock.advance(90 * DAY);
    const [made] = ((await t.call('consolidate', { dryRun: false })) as { created: string[] }).created;
    assert.ok(made);
    const plain = await episode(t, 'A support group newsletter.');
    assert.deepEqual(
      await recalled(t, { query: 'support group', k: 1, detail: false }),
      [plain],
      'the gist ranks second',
    );
    assert.deepEqual(await recalled(t, { query: 'support group', k: 1, detail: true }), [answer]);
    await t.host.close();
  });

  it('by default opens a consolidated hit only onto members that rank above it', async () => {
    const t = await openTestHost();
    const answer = await episode(
      t,
      'The support group meets weekly; the support group helped Caroline.',
      'talk',
    );
    const others = await threeTalks(t);
    const made = await consolidated(t);

    // One member answers better than the gist that quotes four: it stands in the gist's place.
    assert.deepEqual(await recalled(t, { query: 'support group' }), [answer]);
    assert.deepEqual(await recalled(t, { query: 'support group', detail: false }), [made]);
    // Words spread over three members: the gist matches best, and stays.
    const spread = await recalled(t, { query: 'sunrise adoption marathon' });
    assert.equal(spread[0], made, JSON.stringify(spread));
    assert.ok(!others.some((id) => spread.includes(id)), 'no member in place of a gist that ranks first');
    await t.host.close();
  });

  it("puts an opened consolidated memory's members in its own place, ahead of hits it outranks", async () => {
    const t = await openTestHost();
    const members = await threeTalks(t);
    const made = await consolidated(t);
    const plain = await episode(t, 'A marathon.');
    const query = 'sunrise adoption marathon';
    // Across the whole history the gist ranks first, the short plain memory before the member
    // that shares its one word.
    const everything = await recalled(t, { query, includeInactive: true });
    assert.equal(everything[0], made, JSON.stringify(everything));
    assert.ok(everything.indexOf(plain) < everything.indexOf(members[2]!), JSON.stringify(everything));
    // Opened, the gist's members take its first place (best first); the plain memory follows.
    const detailed = await recalled(t, { query, detail: true });
    assert.deepEqual(detailed, [
      ...members.sort((a, b) => everything.indexOf(a) - everything.indexOf(b)),
      plain,
    ]);
    await t.host.close();
  });

  it('notes the access of the hits it returns, not of its deeper first pass', async () => {
    const t = await openTestHost();
    for (let i = 0; i < 6; i++) await episode(t, `The support group met on day ${i} of the retreat.`, 'talk');
    t.clock.advance(90 * DAY);
    await t.call('consolidate', { dryRun: false });
    for (let i = 0; i < 6; i++) await episode(t, `A support group flyer, number ${i}.`);
    for (const detail of [true, undefined]) {
      const { hits } = (await t.call('recall', {
        query: 'support group',
        k: 2,
        ...(detail ? { detail } : {}),
      })) as {
        hits: Array<{ memory: { id: string } }>;
      };
      await episode(t, 'A write, which records the reads noted before it.');
      const data = t.host.store.read((r) =>
        r.value<string>("SELECT data FROM events WHERE type = 'recall' ORDER BY seq DESC LIMIT 1"),
      );
      assert.deepEqual(
        (JSON.parse(data!) as { memoryIds: string[] }).memoryIds,
        hits.map((h) => h.memory.id),
      );
    }
    await t.host.close();
  });

  it("shows a member that ranks in the top k on its own although its gist's text left it out", async () => {
    const t = await openTestHost();
    // Every member shares its words but one: the sentence with 'kayaking' has one rare word of
    // four, so the gist leaves it out and the query finds no consolidated memory in active recall.
    const common = 'Melanie Caroline weekend plans lake';
    const members = [
      await episode(t, `${common}.`, 'talk'),
      await episode(t, `${common} kayaking.`, 'talk'),
      await episode(t, `${common} too.`, 'talk'),
      await episode(t, `${common} again.`, 'talk'),
    ];
    const made = await consolidated(t);
    // Superseded by a newer version with its key, not by a consolidation: it stays out.
    const versions: string[] = [];
    for (const content of ['Kayaking lessons on Tuesdays.', 'Kayaking lessons moved to Thursdays.'])
      versions.push((await t.call('remember', { content, conflictKey: 'lessons' })).memory.id);
    const [older, current] = versions as [string, string];
    assert.equal(
      t.host.store.read((r) =>
        r.value<string>('SELECT superseded_by FROM memories WHERE id = ? AND superseded_at IS NULL', [older]),
      ),
      current,
    );
    const gist = t.host.store.read((r) =>
      r.value<string>('SELECT content FROM memories WHERE id = ? AND superseded_at IS NULL', [made]),
    );
    assert.ok(!/kayaking/i.test(gist ?? ''), gist);
    for (const detail of [undefined, true])
      assert.deepEqual(
        await recalled(t, { query: 'kayaking', ...(detail ? { detail } : {}) }),
        [current, members[1]],
        `detail ${detail}`,
      );
    assert.deepEqual(await recalled(t, { query: 'kayaking', detail: false }), [current]);
    await t.host.close();
  });
});
