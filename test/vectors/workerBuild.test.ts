import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openVectorIndex } from '../../engine/vectors';
import type { VectorIndex } from '../../engine/vectors/types';
import { recordingLogger } from './recordingLogger';
import { bruteForce, clusteredVectors } from './syntheticVectors';

const DIM = 24;
const BUNDLED_WORKER = path.join(__dirname, '..', '..', 'dist', 'vectorWorker.js');

async function selfHit(index: VectorIndex, label: number, vector: Float32Array): Promise<boolean> {
  const [top] = await index.search(vector, 1);
  return top?.label === label && Math.abs(top.score - 1) < 1e-5;
}

describe('background HNSW builds', () => {
  const data = clusteredVectors({ seed: 21, dimension: DIM, clusters: 10 });

  it('searches exactly while the worker builds, then swaps the graph in', async () => {
    const logger = recordingLogger();
    const index = await openVectorIndex({ dimension: DIM, modelId: 'm', logger, crossover: 300 });
    const items = data.items(400);
    await index.add(items);
    assert.equal(index.stats().mode, 'building');
    const query = data.next();
    assert.deepEqual(
      (await index.search(query, 10)).map((h) => h.label),
      bruteForce(items, query, 10).map((h) => h.label),
      'exact results during the build',
    );
    await index.whenBuilt();
    assert.deepEqual(index.stats(), {
      mode: 'hnsw',
      graphSize: 400,
      exactSize: 0,
      crossover: 300,
      failedBuilds: 0,
    });
    assert.ok(logger.entries.some((e) => e.message.includes('swapped in')));
    await index.close();
  });

  it('reconciles adds, upserts and removes made while the worker was building', async () => {
    const index = await openVectorIndex({
      dimension: DIM,
      modelId: 'm',
      logger: recordingLogger(),
      crossover: 300,
    });
    const items = data.items(400);
    await index.add(items);
    assert.equal(index.stats().mode, 'building');
    const added = data.items(20, 1000);
    const upserted = [5, 6, 7].map((label) => ({ label, vector: data.next() }));
    const removed = [10, 11, 12, 1000]; // 1000 was added during the build too
    await index.add(added);
    await index.add(upserted);
    await index.remove(removed);
    await index.whenBuilt();

    assert.equal(index.stats().mode, 'hnsw');
    assert.equal(index.size, 400 + 20 - 4);
    assert.equal(index.stats().exactSize, 0, 'leftovers went into the graph');
    for (const { label, vector } of [...added.slice(1), ...upserted])
      assert.ok(await selfHit(index, label, vector), `${label}`);
    for (const label of removed) {
      const vector = label === 1000 ? added[0]!.vector : items[label]!.vector;
      assert.ok(!(await index.search(vector, 5)).some((h) => h.label === label), `${label} stays removed`);
    }
    await index.close();
  });

  it('builds a large batch on top of the existing graph in the worker', async () => {
    const logger = recordingLogger();
    const index = await openVectorIndex({ dimension: DIM, modelId: 'm', logger, crossover: 300 });
    const first = data.items(350);
    await index.add(first);
    await index.whenBuilt();
    const batch = data.items(300, 5000); // >= the worker batch (32 here): goes to the worker with the base graph
    await index.add([...batch, { label: 0, vector: batch[0]!.vector }]); // and replaces label 0
    assert.equal(index.stats().mode, 'building');
    assert.ok(await selfHit(index, 5001, batch[1]!.vector), 'the batch is searchable at once');
    await index.whenBuilt();
    assert.deepEqual(index.stats(), {
      mode: 'hnsw',
      graphSize: 650,
      exactSize: 0,
      crossover: 300,
      failedBuilds: 0,
    });
    const builds = logger.entries.filter((e) => e.message.includes('building HNSW graph'));
    assert.deepEqual(
      builds.map((e) => e.data),
      [
        { adding: 350, base: 0 },
        { adding: 301, base: 349 },
      ],
    );
    for (const { label, vector } of [...first.slice(1, 50), ...batch.slice(1, 50)]) {
      assert.ok(await selfHit(index, label, vector), `${label}`);
    }
    const zero = await index.search(batch[0]!.vector, 2);
    assert.deepEqual(zero.map((h) => h.label).sort(), [0, 5000]);
    await index.close();
  });

  it('keeps searching exactly and logs an error when the worker cannot start', async () => {
    const logger = recordingLogger();
    const index = await openVectorIndex({
      dimension: DIM,
      modelId: 'm',
      logger,
      crossover: 100,
      worker: { file: path.join(__dirname, 'no-such-worker.js') },
    });
    const items = data.items(150);
    await index.add(items);
    await index.whenBuilt();
    assert.deepEqual(index.stats(), {
      mode: 'exact',
      graphSize: 0,
      exactSize: 150,
      crossover: 100,
      failedBuilds: 1,
    });
    assert.ok(logger.entries.some((e) => e.level === 'error' && e.message.includes('build failed')));
    const query = data.next();
    assert.deepEqual(
      (await index.search(query, 5)).map((h) => h.label),
      bruteForce(items, query, 5).map((h) => h.label),
    );
    await index.add(data.items(10, 500)); // below the retry point: no new worker per add
    assert.equal(index.stats().mode, 'exact');
    await index.close();
  });

  // npm test builds dist/ first; run `npm run build` before running this file alone.
  it('builds with the bundled dist/vectorWorker.js', async () => {
    const index = await openVectorIndex({
      dimension: DIM,
      modelId: 'm',
      logger: recordingLogger(),
      crossover: 100,
      worker: { file: BUNDLED_WORKER },
    });
    const items = data.items(150);
    await index.add(items);
    await index.whenBuilt();
    assert.deepEqual(index.stats(), {
      mode: 'hnsw',
      graphSize: 150,
      exactSize: 0,
      crossover: 100,
      failedBuilds: 0,
    });
    assert.ok(await selfHit(index, 42, items[42]!.vector));
    await index.close();
  });

  it('close stops a running build', async () => {
    const index = await openVectorIndex({
      dimension: DIM,
      modelId: 'm',
      logger: recordingLogger(),
      crossover: 100,
    });
    await index.add(data.items(300));
    assert.equal(index.stats().mode, 'building');
    await index.close();
    assert.equal(index.size, 0);
  });
});
