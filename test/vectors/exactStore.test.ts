import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ExactStore } from '../../engine/vectors/exactStore';
import { TopK } from '../../engine/vectors/topK';
import { seededRandom } from '../support/seededRandom';
import { bruteForce, clusteredVectors } from './syntheticVectors';

const DIM = 48;

function storeOf(items: Array<{ label: number; vector: Float32Array }>): ExactStore {
  const store = new ExactStore(DIM);
  for (const { label, vector } of items) store.upsert(label, vector);
  return store;
}

/** Same labels in the same order, and scores equal up to float rounding. */
function assertSameHits(actual: Array<{ label: number; score: number }>, expected: typeof actual): void {
  assert.deepEqual(
    actual.map((h) => h.label),
    expected.map((h) => h.label),
  );
  actual.forEach((hit, i) => assert.ok(Math.abs(hit.score - expected[i]!.score) < 1e-5, `score ${i}`));
}

describe('TopK', () => {
  it('keeps the k largest of a stream, best first', () => {
    const random = seededRandom(3);
    const scores = Array.from({ length: 500 }, () => random());
    const top = new TopK(7);
    scores.forEach((score, label) => top.push(label, score));
    const expected = scores
      .map((score, label) => ({ label, score }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 7);
    assert.deepEqual(top.sorted(), expected);
  });

  it('returns fewer than k when fewer were pushed, and nothing for k = 0', () => {
    const top = new TopK(5);
    top.push(1, 0.5);
    top.push(2, 0.9);
    assert.deepEqual(top.sorted(), [
      { label: 2, score: 0.9 },
      { label: 1, score: 0.5 },
    ]);
    const none = new TopK(0);
    none.push(1, 1);
    assert.deepEqual(none.sorted(), []);
  });
});

describe('exact store', () => {
  const data = clusteredVectors({ seed: 11, dimension: DIM, clusters: 8 });
  const items = data.items(700);
  const queries = Array.from({ length: 20 }, () => data.next());

  it('returns the same top-k as sorting every dot product', () => {
    const store = storeOf(items);
    for (const query of queries) {
      for (const k of [1, 10, 50]) assertSameHits(store.search(query, k), bruteForce(items, query, k));
    }
  });

  it('applies a filter before ranking', () => {
    const store = storeOf(items);
    const filter = (label: number) => label % 7 === 3;
    for (const query of queries) {
      const hits = store.search(query, 10, filter);
      assert.ok(hits.every((hit) => filter(hit.label)));
      assertSameHits(hits, bruteForce(items, query, 10, filter));
    }
  });

  it('never returns removed labels, including across compaction', () => {
    const store = storeOf(data.items(3000, 10_000));
    const all = [...store.labels()];
    const removed = new Set(all.filter((label) => label % 3 !== 0)); // 2000 tombstones: compacts
    for (const label of removed) assert.equal(store.remove(label), true);
    assert.equal(store.remove(removed.values().next().value!), false, 'a second remove is a no-op');
    assert.equal(store.size, all.length - removed.size);
    const kept = all
      .filter((label) => !removed.has(label))
      .map((label) => ({ label, vector: store.vector(label)! }));
    for (const query of queries) assertSameHits(store.search(query, 10), bruteForce(kept, query, 10));
  });

  it('upserts in place: a label keeps one slot and its latest vector', () => {
    const store = storeOf(items.slice(0, 100));
    const query = queries[0]!;
    store.upsert(42, query);
    assert.equal(store.size, 100);
    const [best] = store.search(query, 1);
    assert.equal(best?.label, 42);
    assert.ok(Math.abs(best.score - 1) < 1e-5);
  });

  it('snapshots live vectors only and clears back to empty', () => {
    const store = storeOf(items.slice(0, 10));
    store.remove(3);
    const { labels, vectors } = store.snapshot();
    assert.deepEqual([...labels], [0, 1, 2, 4, 5, 6, 7, 8, 9]);
    assert.deepEqual(vectors.subarray(DIM * 3, DIM * 4), items[4]!.vector);
    store.clear();
    assert.equal(store.size, 0);
    assert.deepEqual(store.search(queries[0]!, 5), []);
  });
});
