import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { silentLogger } from '../../engine/host';
import { openVectorIndex } from '../../engine/vectors';
import type { VectorIndex } from '../../engine/vectors/types';
import { bruteForce, clusteredVectors, recall } from './syntheticVectors';

const DIM = 32;

/**
 * An index that has built its HNSW graph (in the worker) over `items`. Later adds smaller than
 * `workerBatch` go straight into the graph on this thread.
 */
async function hnswIndexOf(
  items: Array<{ label: number; vector: Float32Array }>,
  workerBatch?: number,
): Promise<VectorIndex> {
  const index = await openVectorIndex({
    dimension: DIM,
    modelId: 'test-model',
    logger: silentLogger,
    crossover: 200,
    workerBatch,
  });
  await index.add(items);
  await index.whenBuilt();
  assert.equal(index.stats().mode, 'hnsw');
  return index;
}

async function topLabel(
  index: VectorIndex,
  vector: Float32Array,
): Promise<{ label: number; score: number } | undefined> {
  return (await index.search(vector, 1))[0];
}

describe('vector index (HNSW)', () => {
  it('finds at least 95% of the exact top-10 on 5,000 clustered 384-d vectors', async () => {
    const data = clusteredVectors({ seed: 42, dimension: 384, clusters: 256 });
    const items = data.items(5000);
    const queries = Array.from({ length: 100 }, () => data.next());
    const index = await openVectorIndex({
      dimension: 384,
      modelId: 'm',
      logger: silentLogger,
      crossover: 1000,
    });
    await index.add(items);
    await index.whenBuilt();
    assert.deepEqual(index.stats(), {
      mode: 'hnsw',
      graphSize: 5000,
      exactSize: 0,
      crossover: 1000,
      failedBuilds: 0,
    });
    let total = 0;
    for (const query of queries) total += recall(await index.search(query, 10), bruteForce(items, query, 10));
    const meanRecall = total / queries.length;
    assert.ok(meanRecall >= 0.95, `recall@10 ${meanRecall}`);
    await index.close();
  });

  const data = clusteredVectors({ seed: 9, dimension: DIM, clusters: 12 });
  const items = data.items(600);
  const queries = Array.from({ length: 30 }, () => data.next());

  it('returns only labels the filter accepts, close to the exact filtered top-10', async () => {
    const index = await hnswIndexOf(items);
    for (const keep of [(l: number) => l % 2 === 0, (l: number) => l % 25 === 0]) {
      let total = 0;
      for (const query of queries) {
        const hits = await index.search(query, 10, keep);
        assert.ok(hits.every((hit) => keep(hit.label)));
        total += recall(hits, bruteForce(items, query, 10, keep));
      }
      assert.ok(total / queries.length >= 0.95, `filtered recall ${total / queries.length}`);
    }
    await index.close();
  });

  it('upserts a live label in place', async () => {
    const index = await hnswIndexOf(items);
    const replacement = data.next();
    await index.add([{ label: 17, vector: replacement }]);
    assert.equal(index.size, 600);
    const top = await topLabel(index, replacement);
    assert.equal(top?.label, 17);
    assert.ok(Math.abs(top.score - 1) < 1e-5);
    const old = await index.search(items[17]!.vector, 3);
    assert.ok(!old.some((hit) => hit.label === 17 && hit.score > 0.9999), 'the old vector is gone');
    await index.close();
  });

  for (const [path, workerBatch] of [
    ['in the graph', 10_000],
    ['through worker builds', 1],
  ] as const) {
    it(`removes, reuses deleted slots for new labels and brings removed labels back (${path})`, async () => {
      const index = await hnswIndexOf(items, workerBatch);
      const removed = items.slice(100, 160).map((item) => item.label);
      await index.remove(removed);
      assert.equal(index.size, 540);
      for (const label of removed) {
        const hits = await index.search(items[label]!.vector, 5);
        assert.ok(!hits.some((hit) => hit.label === label), `label ${label} was removed`);
      }
      // New labels take over deleted slots; then some removed labels come back with new vectors,
      // some of whose slots were reused: both paths must map the label to the new vector.
      const fresh = data.items(40, 10_000);
      await index.add(fresh);
      const returning = removed.slice(0, 30).map((label) => ({ label, vector: data.next() }));
      await index.add(returning);
      await index.whenBuilt();
      assert.equal(index.stats().exactSize, 0, 'everything is in the graph');
      assert.equal(index.size, 540 + 40 + 30);
      for (const { label, vector } of [...fresh, ...returning]) {
        const top = await topLabel(index, vector);
        assert.equal(top?.label, label);
        assert.ok(Math.abs(top.score - 1) < 1e-5);
      }
      for (const label of removed.slice(30)) {
        const hits = await index.search(items[label]!.vector, 5);
        assert.ok(!hits.some((hit) => hit.label === label), `label ${label} stays removed`);
      }
      // Removing a returned label works too (its slot mapping is intact).
      await index.remove([returning[0]!.label]);
      assert.notEqual((await topLabel(index, returning[0]!.vector))?.label, returning[0]!.label);
      await index.close();
    });
  }

  it('grows past its initial capacity with many small adds', async () => {
    const index = await hnswIndexOf(items, 10_000);
    const more = data.items(2500, 50_000);
    for (let i = 0; i < more.length; i += 100) await index.add(more.slice(i, i + 100));
    assert.equal(index.size, 3100);
    assert.equal(index.stats().mode, 'hnsw');
    for (const { label, vector } of more.filter((_, i) => i % 97 === 0)) {
      assert.equal((await topLabel(index, vector))?.label, label);
    }
    await index.close();
  });
});
