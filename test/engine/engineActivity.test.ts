import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseActivity } from '../../engine/api/engineActivity';

/** Activity from another process (the host's `engram/activity` notification) is checked before use. */
void describe('parseActivity', () => {
  const recall = {
    type: 'recall',
    method: 'recall',
    query: 'who maintains kubernetes',
    memoryIds: ['m1', 'm2'],
    entityIds: [3, 9],
    client: 'mcp:agent',
  };

  void it('accepts recalls and writes, keeping only the known fields', () => {
    assert.deepEqual(parseActivity({ ...recall, extra: 'dropped' }), recall);
    assert.deepEqual(parseActivity({ type: 'write', method: 'remember', client: 'cli', memoryIds: 1 }), {
      type: 'write',
      method: 'remember',
      client: 'cli',
    });
  });

  void it('refuses anything else with a one-line reason naming what was wrong', () => {
    const cases: Array<[unknown, RegExp]> = [
      [null, /activity object/],
      ['recall', /activity object/],
      [{ ...recall, type: 'delete' }, /unknown activity type "delete"/],
      [{ ...recall, client: 7 }, /method and client/],
      [{ ...recall, method: undefined }, /method and client/],
      [{ ...recall, query: ['a'] }, /query/],
      [{ ...recall, query: 'x'.repeat(20_001) }, /query/],
      [{ ...recall, memoryIds: 'm1' }, /memoryIds/],
      [{ ...recall, memoryIds: [1] }, /memoryIds/],
      [{ ...recall, memoryIds: Array.from({ length: 2_001 }, (_, i) => `m${i}`) }, /memoryIds: at most 2000/],
      [{ ...recall, entityIds: [1.5] }, /entityIds/],
      [{ ...recall, entityIds: ['3'] }, /entityIds/],
    ];
    for (const [value, reason] of cases) {
      const parsed = parseActivity(value);
      assert.equal(typeof parsed, 'string', JSON.stringify(value)?.slice(0, 80));
      assert.match(parsed as string, reason);
      assert.ok(!(parsed as string).includes('\n'));
    }
  });
});
