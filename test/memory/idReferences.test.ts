import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractEntities } from '../../engine/extract/entities';
import { openTestHost } from '../support/host';

/*
 * A peer card's lines and a consolidated memory's provenance quote memory ids. An id is a
 * reference: its random characters must not make words a query matches, nor an entity.
 */
const QUOTED = 'm_01kf0hj080ferry00000';

describe('memory ids quoted in a text', () => {
  it('are not words recall matches', async () => {
    const t = await openTestHost();
    const quoting = await t.call('remember', {
      content: `See [${QUOTED}] for the timetable.`,
      dedupe: false,
    });
    const plain = await t.call('remember', { content: 'The ferry leaves at noon.', dedupe: false });
    const { hits } = await t.call('recall', { query: 'ferry', k: 10, readOnly: true });
    assert.deepEqual(
      hits.map((h) => h.memory.id),
      [plain.memory.id],
      `the memory quoting ${quoting.memory.id} is not found by a fragment of the id it quotes`,
    );
    await t.host.close();
  });

  it('are not entities', () => {
    const names = extractEntities(`- [${QUOTED}] Caroline went to the support group.`).map((e) => e.name);
    assert.ok(!names.some((n) => n.includes(QUOTED)), JSON.stringify(names));
    assert.ok(names.includes('Caroline'), JSON.stringify(names));
  });
});
