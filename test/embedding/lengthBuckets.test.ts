import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lengthBuckets } from '../../engine/embedding/lengthBuckets';

describe('lengthBuckets', () => {
  it('groups texts of similar length, shortest first, within the padded-token budget', () => {
    const counts = [30, 5, 100, 6, 28, 7, 90];
    const groups = lengthBuckets(counts, 100);
    assert.deepEqual(groups, [[1, 3, 5], [4, 0], [6], [2]]);
    for (const group of groups) {
      const longest = Math.max(...group.map((i) => counts[i]!));
      assert.ok(group.length === 1 || group.length * longest <= 100, JSON.stringify(group));
    }
  });

  it('covers every index exactly once, and gives a text over the budget its own group', () => {
    const counts = [600, 3, 3, 700, 3];
    const groups = lengthBuckets(counts, 512);
    assert.deepEqual(groups, [[1, 2, 4], [0], [3]]);
    assert.deepEqual(groups.flat().sort(), [0, 1, 2, 3, 4]);
  });

  it('returns no groups for no texts', () => {
    assert.deepEqual(lengthBuckets([], 512), []);
  });
});
