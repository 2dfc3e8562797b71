import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { openTestHost } from '../support/host';
import { rememberFailingAt } from '../support/failingBatch';
import { written } from '../support/written';
import type { TestHost } from '../support/host';

// A new memory's entity links are held back and written together when its write callback ends
// (sorted, a few hundred rows a statement). These pin that nothing is lost, doubled or left behind.

function links(test: TestHost, memoryId: string): Array<{ name: string; weight: number }> {
  return test.host.store.read((r) =>
    r.all<{ name: string; weight: number }>(
      'SELECT e.name AS name, me.weight AS weight FROM memory_entities me JOIN entities e ON e.id = me.entity_id WHERE me.memory_id = ? ORDER BY e.name',
      [memoryId],
    ),
  );
}

async function host(options: Parameters<typeof openTestHost>[0] = {}): Promise<TestHost> {
  const test = await openTestHost(options);
  after(() => test.host.close());
  return test;
}

describe('entity links of new memories', () => {
  it('are all written by a batch, each memory with its own, and found through the graph', async () => {
    const test = await host();
    const results = written(
      await test.call('rememberMany', {
        memories: [
          { content: 'Priya moved the billing jobs from redis to postgres' },
          { content: 'our deploys go through docker and kubernetes, owned by Priya' },
          { content: 'A sentence naming nothing at all' },
          { content: 'redis is still the cache for sessions' },
        ],
      }),
    );
    const [billing, deploys, nothing, cache] = results.map((r) => r.memory.id) as [
      string,
      string,
      string,
      string,
    ];
    assert.deepEqual(
      links(test, billing).map((l) => l.name.toLowerCase()),
      ['postgresql', 'priya', 'redis'],
    );
    assert.deepEqual(
      links(test, deploys).map((l) => l.name.toLowerCase()),
      ['docker', 'kubernetes', 'priya'],
    );
    assert.deepEqual(links(test, nothing), []);
    assert.deepEqual(
      links(test, cache).map((l) => l.name.toLowerCase()),
      ['redis'],
    );
    const related = await test.call('related', { entity: 'redis' });
    assert.deepEqual(related.memories.map((m) => m.memory.id).sort(), [billing, cache].sort());
    // A single remember writes its links too.
    const single = await test.call('remember', { content: 'Priya reviews every postgres migration' });
    assert.deepEqual(
      links(test, single.memory.id).map((l) => l.name.toLowerCase()),
      ['postgresql', 'priya'],
    );
  });

  it('are replaced, not added to, when a memory is edited', async () => {
    const test = await host();
    const first = await test.call('remember', { content: 'The search service runs on redis' });
    await test.call('edit', {
      id: first.memory.id,
      changes: { content: 'The search service runs on postgres' },
    });
    assert.deepEqual(
      links(test, first.memory.id).map((l) => l.name.toLowerCase()),
      ['postgresql'],
    );
  });

  it('are rolled back with a batch that fails part-way, and the next write links normally', async () => {
    const test = await host();
    assert.throws(
      () =>
        rememberFailingAt(
          test.host.store,
          [
            { content: 'docker builds the image for kubernetes' },
            { content: 'redis and postgres both run in docker compose locally' },
            { content: 'kubernetes pulls from the registry, then redis warms up' },
          ],
          2,
        ),
      /no memory with id "m_gone"/,
    );
    const orphans = test.host.store.read((r) =>
      r.value<number>(
        'SELECT count(*) FROM memory_entities WHERE memory_id NOT IN (SELECT id FROM memories)',
      ),
    );
    assert.equal(orphans, 0);
    assert.equal((await test.call('stats')).memories, 0);
    const next = await test.call('remember', { content: 'docker starts redis' });
    assert.deepEqual(
      links(test, next.memory.id).map((l) => l.name.toLowerCase()),
      ['docker', 'redis'],
    );
  });
});
