import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { propagateToNeighbours, sessionNeighbours } from '../../engine/retrieval/neighbourChannel';
import { cachedSessionMembers } from '../../engine/retrieval/storeCounts';
import { openTestHost } from '../support/host';

describe('session neighbours', () => {
  it('are the active turns written just before and after, in the same session, after every write', async () => {
    const t = await openTestHost();
    const store = t.host.store;
    const remember = async (content: string, session: string) =>
      (await t.call('remember', { content, layer: 'episodic', session })).memory.id;
    const a1 = await remember('a one', 'a');
    await remember('b one', 'b');
    const a2 = await remember('a two', 'a');
    const a3 = await remember('a three', 'a');
    await remember('b two', 'b');
    const a4 = await remember('a four', 'a');
    const around = (id: string) => {
      const members = (session: string) => store.read((r) => cachedSessionMembers(store.db, r, session));
      const looked = store.read((r) => sessionNeighbours(r, id, members));
      // Told the session (the caller holds the current row), the answer is the same.
      assert.deepEqual(
        store.read((r) => sessionNeighbours(r, id, members, 'a')),
        looked,
      );
      return looked;
    };

    assert.deepEqual(around(a1), [a2]);
    assert.deepEqual(around(a2), [a1, a3]);
    assert.deepEqual(around(a4), [a3]);
    await t.call('forget', { id: a3 });
    assert.deepEqual(around(a2), [a1, a4], 'a forgotten turn is skipped');
    assert.deepEqual(around(a3), [a2, a4], 'a forgotten hit still has neighbours');
    const a5 = await remember('a five', 'a');
    assert.deepEqual(around(a4), [a2, a5], 'a new turn is seen');
    // The uncached form agrees.
    assert.deepEqual(
      store.read((r) => sessionNeighbours(r, a4)),
      [a2, a5],
    );
    await t.host.close();
  });
});

describe('score propagation to session neighbours', () => {
  const adjacent: Record<string, string[]> = { a: ['x', 'b'], b: ['a', 'y'], c: ['d'], z: ['c'] };
  const around = (id: string) => adjacent[id] ?? [];

  it('gives each neighbour a share of the hit score, keeping the higher of its own and the best propagated', () => {
    const { ranked, via } = propagateToNeighbours(
      [
        { memoryId: 'a', score: 10 },
        { memoryId: 'b', score: 6 },
        { memoryId: 'c', score: 5 },
        { memoryId: 'z', score: 1 },
      ],
      around,
      0.8,
    );
    assert.deepEqual(
      ranked.map((h) => [h.memoryId, Math.round(h.score * 100) / 100]),
      [
        ['a', 10],
        ['b', 8], // 0.8 x a's 10 beats its own 6
        ['x', 8],
        ['c', 5], // its own 5 beats 0.8 x z's 1
        ['y', 4.8], // from b's own score, not from what b received
        ['d', 4],
        ['z', 1],
      ],
    );
    assert.deepEqual(via.get('x'), { from: 'a', rank: 1, score: 8 });
    assert.equal(via.get('y')?.from, 'b');
    assert.equal(via.get('y')?.rank, 2);
    assert.equal(via.has('a'), false, 'a hit that kept its own score is not attributed to a neighbour');
    assert.equal(via.has('c'), false);
  });

  it('changes nothing with a share of 0 or without neighbours', () => {
    const hits = [
      { memoryId: 'b', score: 3 },
      { memoryId: 'a', score: 2 },
    ];
    assert.deepEqual(propagateToNeighbours(hits, around, 0).ranked, hits);
    assert.deepEqual(propagateToNeighbours(hits, () => [], 0.8).ranked, hits);
  });
});
