import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sessionNeighbours } from '../../engine/retrieval/neighbourChannel';
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
