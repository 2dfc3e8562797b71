import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openTestHost } from '../support/host';

/*
 * Ids sort by creation, also within one millisecond (a batch of writes shares its clock reading):
 * recall breaks ties between equal scores by id, so a tie must fall the same way on every run.
 */
describe('memory ids written in one millisecond', () => {
  it('sort in the order the memories were written', async () => {
    const t = await openTestHost();
    const results = await t.call('rememberMany', {
      memories: Array.from({ length: 40 }, (_, i) => ({
        content: `Entry ${i} of the packing list.`,
        layer: 'episodic',
        dedupe: false,
      })),
    });
    const ids = results.map((r) => (r.outcome === 'rejected' ? '' : r.memory.id));
    assert.deepEqual([...ids].sort(), ids);
    await t.host.close();
  });

  it('make recall rank equal scores in the order they were written', async () => {
    const t = await openTestHost();
    const results = await t.call('rememberMany', {
      memories: Array.from({ length: 12 }, () => ({
        content: 'The harbour ferry leaves at noon.',
        layer: 'episodic',
        dedupe: false,
      })),
    });
    const written = results.map((r) => (r.outcome === 'rejected' ? '' : r.memory.id));
    const { hits } = await t.call('recall', { query: 'harbour ferry', k: 12, readOnly: true });
    assert.deepEqual(
      hits.map((h) => h.memory.id),
      written,
    );
    await t.host.close();
  });
});
