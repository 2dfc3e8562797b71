import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openTestHost } from '../support/host';
import type { TestHost } from '../support/host';

const entity = (name: string, ...observations: string[]) => ({ name, entityType: 'person', observations });

/** The whole graph (cached), and the same graph read afresh: a search for '' matches every entity. */
async function bothReads(t: TestHost) {
  const cached = await t.call('graphRead', {});
  const fresh = await t.call('graphRead', { query: '' });
  return { cached, fresh };
}

describe('whole-graph reads kept between calls (knowledgeGraph/graphCache.ts)', () => {
  it('a read after add_observations reads again only the entity written to', async () => {
    const t = await openTestHost();
    await t.call('graphCreateEntities', {
      entities: [entity('Alice', 'a1'), entity('Bob', 'b1'), entity('Carol', 'c1')],
    });
    const before = await t.call('graphRead', {});
    await t.call('graphAddObservations', { observations: [{ entityName: 'Bob', contents: ['b2'] }] });
    const after = await t.call('graphRead', {});
    assert.deepEqual(after.entities[1], entity('Bob', 'b1', 'b2'));
    assert.equal(after.entities[0], before.entities[0], 'Alice was not read again');
    assert.equal(after.entities[2], before.entities[2], 'Carol was not read again');
    assert.notEqual(after.entities[1], before.entities[1]);
  });

  it('answers as a fresh read after every kind of write, failed and foreign ones included', async () => {
    const t = await openTestHost();
    const steps: Array<[string, () => Promise<unknown>]> = [
      ['create', () => t.call('graphCreateEntities', { entities: [entity('A', 'a1'), entity('B')] })],
      [
        'create more',
        () => t.call('graphCreateEntities', { entities: [entity('C', 'c1'), entity('A', 'x')] }),
      ],
      [
        'relations',
        () => t.call('graphCreateRelations', { relations: [{ from: 'A', to: 'C', relationType: 'knows' }] }),
      ],
      [
        'add',
        () => t.call('graphAddObservations', { observations: [{ entityName: 'A', contents: ['a2'] }] }),
      ],
      [
        'add that fails half-way (rolled back)',
        () =>
          t
            .call('graphAddObservations', {
              observations: [
                { entityName: 'B', contents: ['b9'] },
                { entityName: 'nobody', contents: ['x'] },
              ],
            })
            .catch(() => undefined),
      ],
      [
        'two writes in a row',
        async () => {
          await t.call('graphAddObservations', { observations: [{ entityName: 'C', contents: ['c2'] }] });
          await t.call('graphCreateEntities', { entities: [entity('D', 'd1')] });
        },
      ],
      ['a write of Engram memory', () => t.call('remember', { content: 'The deploy runs on Fridays.' })],
      [
        'a failed add, then an import of an official memory.jsonl (no read between)',
        async () => {
          await t
            .call('graphAddObservations', { observations: [{ entityName: 'nobody', contents: ['x'] }] })
            .catch(() => undefined);
          await t.call('import', {
            from: 'mcp-memory',
            text: JSON.stringify({ type: 'entity', name: 'F', entityType: 'person', observations: ['f1'] }),
          });
        },
      ],
      [
        'delete observations',
        () => t.call('graphDelete', { deletions: [{ entityName: 'A', observations: ['a1'] }] }),
      ],
      [
        'delete relations',
        () => t.call('graphDelete', { relations: [{ from: 'A', to: 'C', relationType: 'knows' }] }),
      ],
      ['delete entities', () => t.call('graphDelete', { entityNames: ['B'] })],
      ['create after a delete', () => t.call('graphCreateEntities', { entities: [entity('E', 'e1')] })],
    ];
    for (const [step, write] of steps) {
      await write();
      const { cached, fresh } = await bothReads(t);
      assert.deepEqual(cached, fresh, `after ${step}`);
    }
    const { cached } = await bothReads(t);
    assert.deepEqual(
      cached.entities.map((e) => `${e.name}: ${e.observations.join(' ')}`),
      ['A: a2', 'C: c1 c2', 'D: d1', 'F: f1', 'E: e1'],
    );
  });
});
