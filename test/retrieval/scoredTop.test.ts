import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scoredTop } from '../../engine/retrieval/scoredTop';
import { seededRandom } from '../support/seededRandom';

/** What recall did before: every score sorted (ties by id), cut to depth, then only the found. */
function sortedCut(scores: Map<number, number>, ids: string[], depth: number, only?: Set<string>) {
  return [...scores]
    .map(([index, score]) => ({ memoryId: ids[index]!, score }))
    .sort((a, b) => b.score - a.score || a.memoryId.localeCompare(b.memoryId))
    .slice(0, depth)
    .filter((hit) => !only || only.has(hit.memoryId));
}

describe('scoredTop', () => {
  it('keeps the same memories in the same order as sorting every score and cutting it', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const random = seededRandom(seed);
      const ids = Array.from(
        { length: 3000 },
        (_, i) => `m${(i * 7919) % 3001}-${Math.floor(random() * 1e6)}`,
      );
      const scores = new Map<number, number>();
      // Few distinct values: many ties, also across the cut.
      for (let i = 0; i < ids.length; i++) if (random() < 0.7) scores.set(i, Math.floor(random() * 40) / 40);
      const only = new Set(ids.filter(() => random() < 0.3));
      for (const depth of [1, 50, 500, scores.size - 1, scores.size, scores.size + 10]) {
        assert.deepEqual(
          scoredTop(scores, ids, depth, only),
          sortedCut(scores, ids, depth, only),
          `${seed} ${depth}`,
        );
        assert.deepEqual(
          scoredTop(scores, ids, depth),
          sortedCut(scores, ids, depth),
          `${seed} ${depth} all`,
        );
      }
    }
  });

  it('cuts ties at the depth by memory id', () => {
    const ids = ['c', 'a', 'b', 'd'];
    const scores = new Map([
      [0, 1],
      [1, 0.5],
      [2, 0.5],
      [3, 0.5],
    ]);
    assert.deepEqual(
      scoredTop(scores, ids, 2).map((hit) => hit.memoryId),
      ['c', 'a'],
    );
    assert.deepEqual(
      scoredTop(scores, ids, 3, new Set(['b', 'd'])).map((hit) => hit.memoryId),
      ['b'],
    );
  });
});
