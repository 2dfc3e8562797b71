import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scoreGroups } from './scoreGroups';

describe('bench score groups', () => {
  it('averages overall and per category, and per half when queries carry one', () => {
    const scores = scoreGroups([
      { category: 'preference', half: 'tuning', values: { hit: 1 } },
      { category: 'preference', half: 'reporting', values: { hit: 0 } },
      { category: 'preference', half: 'reporting', values: { hit: 1 } },
      { category: 'temporal', half: 'reporting', values: { hit: 1 } },
    ]);
    assert.deepEqual(scores['overall'], { hit: 0.75, n: 4 });
    assert.deepEqual(scores['preference'], { hit: 0.667, n: 3 });
    assert.deepEqual(scores['tuning half'], { hit: 1, n: 1 });
    assert.deepEqual(scores['reporting half'], { hit: 0.667, n: 3 });
    assert.deepEqual(scores['preference, reporting half'], { hit: 0.5, n: 2 });
    assert.deepEqual(Object.keys(scores), [
      'overall',
      'preference',
      'temporal',
      'tuning half',
      'reporting half',
      'preference, tuning half',
      'preference, reporting half',
      'temporal, reporting half',
    ]);
  });

  it('adds no half groups for queries without one', () => {
    const scores = scoreGroups([{ category: 'tuning', values: { mrr: 0.5 } }]);
    assert.deepEqual(Object.keys(scores), ['overall', 'tuning']);
  });
});
