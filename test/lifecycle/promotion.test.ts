import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openTestHost } from '../support/host';
import type { TestHost } from '../support/host';
import { waitUntil } from '../support/waitUntil';
import { currentMemory } from '../../engine/memory/memoryQueries';

const MINUTE = 60_000;

async function remember(t: TestHost, content: string, extra: Record<string, unknown> = {}): Promise<string> {
  const result = await t.call('remember', { content, ...extra });
  return (result as { memory: { id: string } }).memory.id;
}

async function layerOf(t: TestHost, id: string): Promise<string> {
  return ((await t.call('get', { id, readOnly: true })) as { memory: { layer: string } }).memory.layer;
}

/* Issue 21, section 2: promotion between layers, each a new version with its reason. */
describe('lifecycle: promotion', () => {
  it('a working note becomes an episode after 30 minutes or two recalls; an important, often recalled episode becomes knowledge', async () => {
    const t = await openTestHost();
    const session = { session: 's1' };
    const old = await remember(t, 'Scratch: the flaky test is test_upload_retry.', {
      layer: 'working',
      actor: session,
    });
    t.clock.advance(25 * MINUTE);
    const recalled = await remember(t, 'Scratch: the zeppelin fixture needs a hangar.', {
      layer: 'working',
      actor: session,
    });
    const fresh = await remember(t, 'Scratch: try the staging cluster next.', {
      layer: 'working',
      actor: session,
    });
    for (let i = 0; i < 2; i++)
      await t.call('recall', { query: 'zeppelin fixture hangar', k: 1, actor: session });
    const knowledge = await remember(t, 'Billing invoices are retried three times by the worker.', {
      layer: 'episodic',
      importance: 1,
      tags: ['billing', 'worker', 'invoices'],
    });
    for (let i = 0; i < 5; i++) await t.call('recall', { query: 'billing invoices retried worker', k: 1 });
    const episode = await remember(t, 'Lunch was late today.', { layer: 'episodic' });
    t.clock.advance(6 * MINUTE);

    const plan = (await t.call('lifecycle', {})) as {
      promoted: Array<{ memoryId: string; from: string; to: string; reason: string }>;
    };
    const planned = new Map(plan.promoted.map((p) => [p.memoryId, p]));
    assert.deepEqual(planned.get(old)?.to, 'episodic');
    assert.match(planned.get(old)?.reason ?? '', /^kept 31 minutes$/);
    assert.equal(planned.get(recalled)?.reason, 'recalled 2 times');
    assert.equal(planned.get(knowledge)?.to, 'semantic', JSON.stringify(plan));
    assert.ok(!planned.has(fresh) && !planned.has(episode));
    assert.equal(await layerOf(t, old), 'working', 'a dry run changes nothing');

    await t.call('lifecycle', { dryRun: false });
    assert.equal(await layerOf(t, old), 'episodic');
    assert.equal(await layerOf(t, recalled), 'episodic');
    assert.equal(await layerOf(t, knowledge), 'semantic');
    assert.equal(await layerOf(t, fresh), 'working');
    assert.equal(await layerOf(t, episode), 'episodic');
    const history = (await t.call('history', { id: knowledge })) as {
      versions: Array<{ change: string; layer: string }>;
    };
    assert.deepEqual(
      history.versions.map((v) => [v.change, v.layer]),
      [
        ['created', 'episodic'],
        ['promoted', 'semantic'],
      ],
    );
    await t.host.close();
  });

  it('a long-lived host runs the lifecycle by itself, off any call', async () => {
    const t = await openTestHost({ lifecycleEveryMs: 200 });
    const note = await remember(t, 'Scratch: bisecting the upload regression.', {
      layer: 'working',
      actor: { session: 's1' },
    });
    t.clock.advance(31 * MINUTE);
    const layer = () => t.host.store.read((r) => currentMemory(r, note).layer);
    await waitUntil(() => layer() === 'episodic', 10_000, 'the scheduled run to promote the note');
    const events = (await t.call('events', { types: ['lifecycle'] })) as { events: unknown[] };
    assert.ok(events.events.length >= 1);
    await t.host.close();
  });
});
