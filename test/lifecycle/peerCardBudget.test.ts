import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_PEER_CARDS, PEER_CARD_KEY } from '../../engine/lifecycle/storedPeerCards';
import { openTestHost } from '../support/host';
import type { TestHost } from '../support/host';

/** Files src/mod<i>.ts, the i-th named in `counts[i]` more memories of its own. */
async function writeModules(t: TestHost, counts: number[], phase: string): Promise<void> {
  const memories = counts.flatMap((count, i) =>
    Array.from({ length: count }, (_, n) => ({
      content: `src/mod${i}.ts handles case ${phase}${n} of job ${i}.`,
      kind: 'fact',
      dedupe: false,
    })),
  );
  await t.call('rememberMany', { memories });
}

const mods = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => `src/mod${from + i}.ts`);

/** The entities with an active card, read from the store. */
function cardedEntities(t: TestHost): string[] {
  return t.host.store
    .read((r) =>
      r.all<{ content: string }>(
        `SELECT content FROM memories WHERE conflict_key LIKE '${PEER_CARD_KEY}%'
         AND superseded_at IS NULL AND status = 'active'`,
      ),
    )
    .map((m) => /^What we know about (\S+)/.exec(m.content)?.[1] ?? '')
    .sort();
}

/*
 * Issue 21, section 3.4: peer cards are an index of the memory, not a second copy. One card per
 * `memoriesPerCard` active memories at most, for the entities with the most memories.
 */
describe('lifecycle: the peer-card budget', () => {
  it('cards the best-connected entities only, and archives a card whose entity falls out of them', async () => {
    const t = await openTestHost();
    // 30 files: 12 with 6 memories, 18 with 4 (the minimum): 144 memories, a budget of 14 cards,
    // for the 12 files with most and the first two of the others.
    const min = DEFAULT_PEER_CARDS.minMemories;
    await writeModules(t, [...Array<number>(12).fill(6), ...Array<number>(18).fill(min)], 'a');
    await t.call('lifecycle', { dryRun: false });
    assert.deepEqual(cardedEntities(t), mods(0, 14).sort());

    // Files 14-29 get 3 more memories each: 192 memories, 19 cards, for them and files 0-2. The
    // cards of files 3-13 are archived although none of their memories changed.
    t.clock.advance(60_000);
    await writeModules(t, [...Array<number>(14).fill(0), ...Array<number>(16).fill(3)], 'b');
    const run = await t.call('lifecycle', { dryRun: false });
    assert.deepEqual(cardedEntities(t), [...mods(0, 3), ...mods(14, 30)].sort());
    const archived = run.peerCards.changes.filter((c) => c.action === 'archive');
    assert.deepEqual(archived.map((c) => c.entity.split(' ')[0]).sort(), mods(3, 14).sort());
    assert.match(archived[0]!.reason, /not among the entities with the most/);
    await t.host.close();
  });

  it('writes no card for a word capitalised inside sentences less often than in lower case', async () => {
    const t = await openTestHost();
    for (const content of [
      'Caroline follows the Sleep plan: sleep at ten, sleep in a dark room.',
      'Caroline says the Sleep plan works if the sleep diary is kept and sleep is regular.',
      'For the Sleep plan, Caroline keeps the phone out of the bedroom; sleep comes sooner.',
      'Caroline added a walk to the Sleep plan, so her sleep is deeper and her sleep longer.',
    ])
      await t.call('remember', { content, kind: 'fact', dedupe: false });
    const run = await t.call('lifecycle', { dryRun: false });
    const carded = run.peerCards.changes.map((c: { entity: string }) => c.entity);
    assert.ok(
      carded.some((e: string) => e.startsWith('Caroline ')),
      JSON.stringify(carded),
    );
    assert.ok(!carded.some((e: string) => e.startsWith('Sleep ')), JSON.stringify(carded));
    await t.host.close();
  });
});
