import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openTestHost } from '../support/host';

/**
 * What the lifecycle writes from private memories stays private: a consolidated memory of an
 * agent's private episodes is that agent's private memory, and a peer card (shared, shown to
 * every reader) quotes shared memories only.
 */
const alice = { actor: { agent: 'alice', session: 'alice-1' } };
const bob = { actor: { agent: 'bob', session: 'bob-1' } };

describe('lifecycle: private memories stay private', () => {
  it("consolidates an agent's private episodes into that agent's private memory, which other agents never see", async () => {
    const t = await openTestHost();
    const ids: string[] = [];
    for (const content of [
      'The billing worker in src/billing/retry.ts retries invoices on timeout (alice, privately).',
      'We moved the queue of src/billing/retry.ts to Redis last week (alice, privately).',
      'Redis keys for billing invoices expire after a day (alice, privately).',
    ]) {
      const made = await t.call('remember', {
        content,
        layer: 'episodic',
        scope: 'private',
        dedupe: false,
        ...alice,
      });
      ids.push(made.memory.id);
    }
    for (const id of [...ids, ...ids]) await t.call('get', { id, ...alice });
    const done = await t.call('consolidate', { dryRun: false });
    assert.equal(done.created.length, 1, JSON.stringify(done));
    const made = (await t.call('get', { id: done.created[0]!, ...alice })).memory;
    assert.deepEqual([made.scope, made.agent, made.trust], ['private', 'alice', 'consolidation']);
    await assert.rejects(t.call('get', { id: made.id, ...bob }), /no memory with id/);
    const recalled = await t.call('recall', { query: 'billing retry Redis invoices', ...bob });
    assert.equal(recalled.hits.length, 0, JSON.stringify(recalled.hits.map((h) => h.memory.content)));
    await t.host.close();
  });

  it("a peer card quotes the shared memories about its entity, never an agent's private one", async () => {
    const t = await openTestHost();
    const shared: string[] = [];
    for (const content of [
      'src/auth/session.ts signs tokens with the key in AUTH_SECRET.',
      'Tokens from src/auth/session.ts expire after 15 minutes.',
      'src/auth/session.ts refreshes a token when it has under a minute left.',
      'The login page calls src/auth/session.ts to start a session.',
    ])
      shared.push((await t.call('remember', { content, kind: 'fact', dedupe: false, ...bob })).memory.id);
    const hidden = await t.call('remember', {
      content: 'src/auth/session.ts has a debug bypass alice keeps to herself: header X-Alice-Skip.',
      kind: 'fact',
      scope: 'private',
      dedupe: false,
      ...alice,
    });
    const run = await t.call('lifecycle', { dryRun: false });
    const change = run.peerCards.changes.find((c) => c.entity.startsWith('src/auth/session.ts'));
    assert.ok(change, JSON.stringify(run.peerCards));
    assert.equal(change.members, 4);
    const card = (await t.call('get', { id: change.cardId!, ...bob })).memory;
    for (const id of shared) assert.ok(card.content.includes(id), `the card quotes ${id}`);
    assert.ok(
      !card.content.includes('X-Alice-Skip') && !card.content.includes(hidden.memory.id),
      card.content,
    );
    const levels = await t.call('contextLevels', { query: 'session tokens', ...bob });
    assert.ok(!levels.text.includes('X-Alice-Skip'), levels.text);
    await t.host.close();
  });
});
