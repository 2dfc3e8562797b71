import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openTestHost } from '../support/host';
import type { TestHost } from '../support/host';

const ABOUT_SESSION = [
  'src/auth/session.ts signs tokens with the key in AUTH_SECRET.',
  'Tokens from src/auth/session.ts expire after 15 minutes.',
  'src/auth/session.ts refreshes a token when it has under a minute left.',
  'The login page calls src/auth/session.ts to start a session.',
];

async function remember(t: TestHost, content: string): Promise<string> {
  return (await t.call('remember', { content, kind: 'fact', dedupe: false })).memory.id;
}

type Card = {
  memory: { id: string; layer: string; kind: string; content: string; context: string; status: string };
};

async function card(t: TestHost, id: string): Promise<Card['memory']> {
  return ((await t.call('get', { id, readOnly: true })) as Card).memory;
}

/** A store with four memories about src/auth/session.ts and the card a lifecycle run wrote for it. */
async function sessionCard(): Promise<{ t: TestHost; ids: string[]; cardId: string }> {
  const t = await openTestHost();
  const ids = [];
  for (const content of ABOUT_SESSION) ids.push(await remember(t, content));
  const run = await t.call('lifecycle', { dryRun: false });
  const cardId = run.peerCards.changes.find((c) => c.entity.startsWith('src/auth/session.ts'))!.cardId!;
  return { t, ids, cardId };
}

/* Issue 21, section 3.4: a stored summary memory per well-connected entity, kept current. */
describe('lifecycle: stored peer cards', () => {
  it('a lifecycle run writes a card for an entity with enough memories; a dry run only plans it', async () => {
    const t = await openTestHost();
    const ids = [];
    for (const content of ABOUT_SESSION) ids.push(await remember(t, content));
    await remember(t, 'Caroline prefers webpack over vite for the docs site.');

    const plan = await t.call('lifecycle', {});
    const planned = plan.peerCards.changes.filter((c) => c.entity.startsWith('src/auth/session.ts'));
    assert.equal(planned.length, 1, JSON.stringify(plan.peerCards));
    assert.deepEqual([planned[0]!.action, planned[0]!.cardId, planned[0]!.members], ['create', null, 4]);
    assert.equal(
      (await t.call('lifecycle', {})).peerCards.considered,
      plan.peerCards.considered,
      'nothing written',
    );

    const consolidation = await t.call('consolidate', {});
    assert.deepEqual(
      consolidation.next.peerCards.changes.map((c) => c.action),
      plan.peerCards.changes.map((c) => c.action),
      'the consolidation dry run lists what the lifecycle run would do to the cards',
    );
    const run = await t.call('lifecycle', { dryRun: false });
    const made = run.peerCards.changes.find((c) => c.entity.startsWith('src/auth/session.ts'))!;
    const stored = await card(t, made.cardId!);
    assert.deepEqual([stored.layer, stored.kind, stored.status], ['semantic', 'summary', 'active']);
    assert.match(stored.content, /^What we know about src\/auth\/session\.ts \(\w+\), from 4 memories/);
    for (const id of ids) assert.ok(stored.content.includes(id), `the card quotes ${id}`);

    // Nothing changed: the next run looks at no entity and writes nothing.
    assert.equal((await t.call('lifecycle', { dryRun: false })).peerCards.considered, 0);
  });

  it('is rewritten when a member is added or invalidated, with the reason in its history, and archived below the threshold', async () => {
    const { t, ids, cardId } = await sessionCard();

    t.clock.advance(60_000);
    const added = await remember(t, 'src/auth/session.ts logs every refused token at warn level.');
    const second = await t.call('lifecycle', { dryRun: false });
    const update = second.peerCards.changes.find((c) => c.cardId === cardId);
    assert.equal(update?.action, 'update', JSON.stringify(second.peerCards));
    const updated = await card(t, cardId);
    assert.match(updated.content, /from 5 memories/, 'the card itself is not one of its members');
    assert.ok(updated.content.includes(added));
    assert.match(updated.context, new RegExp(`changed: ${added} created`));
    const history = await t.call('history', { id: cardId });
    assert.deepEqual(history.versions.map((v) => v.change).sort(), ['created', 'edited']);

    t.clock.advance(60_000);
    await t.call('invalidate', { id: ids[0]!, reason: 'no longer true' });
    await t.call('invalidate', { id: ids[1]!, reason: 'no longer true' });
    const third = await t.call('lifecycle', { dryRun: false });
    const archive = third.peerCards.changes.find((c) => c.cardId === cardId);
    assert.equal(archive?.action, 'archive');
    assert.equal((await card(t, cardId)).status, 'archived');
  });

  it("feeds the context levels' L2 and is neither consolidated nor a member of its own card", async () => {
    const { t, cardId } = await sessionCard();
    const block = await t.call('contextLevels', { query: 'when do tokens expire?', budget: 3000 });
    const l2 = block.levels.find((l) => l.level === 'L2')!;
    assert.equal(l2.ids[0], cardId, l2.text);
    assert.match(l2.text, /What we know about src\/auth\/session\.ts/);
    for (const id of [cardId, cardId]) await t.call('get', { id });
    const plan = await t.call('consolidate', {});
    assert.ok(!plan.clusters.some((c) => c.members.includes(cardId)));
  });

  it('plans one change per card when more than one id slice of memories changed (500 a slice)', async () => {
    const { t, ids, cardId } = await sessionCard();
    t.clock.advance(60_000);
    // The card's memories changed in the first and in the last slice of the changed ids.
    await t.call('invalidate', { id: ids[0]!, reason: 'no longer true' });
    await t.call('rememberMany', {
      memories: Array.from({ length: 520 }, (_, i) => ({
        content: `Unrelated note number ${i}.`,
        dedupe: false,
      })),
    });
    await t.call('invalidate', { id: ids[1]!, reason: 'no longer true' });
    const run = await t.call('lifecycle', { dryRun: false });
    const mine = run.peerCards.changes.filter((c) => c.cardId === cardId);
    assert.deepEqual(
      mine.map((c) => c.action),
      ['archive'],
      JSON.stringify(mine),
    );
    assert.equal((await card(t, cardId)).status, 'archived');
  });

  it('writes no card for a capitalised word that only ever opens a sentence, and one for a name', async () => {
    const t = await openTestHost();
    for (const content of [
      'Aww, the puppy from the shelter is adorable. Caroline adopted him.',
      'Caroline: Aww, thanks so much!',
      'Aww! Caroline sent the photo from the lake.',
      'Melanie: Aww, love that. Say hi to Caroline for me!',
    ])
      await remember(t, content);
    const run = await t.call('lifecycle', { dryRun: false });
    const carded = run.peerCards.changes.map((c) => c.entity);
    assert.ok(
      carded.some((e) => e.startsWith('Caroline ')),
      JSON.stringify(carded),
    );
    assert.ok(!carded.some((e) => e.startsWith('Aww ')), JSON.stringify(carded));
    await t.host.close();
  });
});
