import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EngramError } from '../../engine/errors';
import { silentLogger } from '../../engine/host';
import { openVectorIndex } from '../../engine/vectors';
import { bruteForce, clusteredVectors } from './syntheticVectors';

const DIM = 32;

/** An index that stays exact: the crossover is out of reach. */
function openExact() {
  return openVectorIndex({
    dimension: DIM,
    modelId: 'test-model',
    logger: silentLogger,
    crossover: 1_000_000,
  });
}

describe('vector index (exact mode)', () => {
  const data = clusteredVectors({ seed: 5, dimension: DIM, clusters: 6 });
  const items = data.items(400);
  const query = data.next();

  it('starts empty with needsRebuild when no file is given', async () => {
    const index = await openExact();
    assert.equal(index.size, 0);
    assert.equal(index.needsRebuild, true);
    assert.equal(index.rebuildReason, 'missing');
    assert.deepEqual(await index.search(query, 5), []);
    await index.close();
  });

  it('ranks by cosine similarity like brute force, with and without a filter', async () => {
    const index = await openExact();
    await index.add(items);
    assert.equal(index.size, 400);
    assert.equal(index.stats().mode, 'exact');
    const hits = await index.search(query, 10);
    assert.deepEqual(
      hits.map((h) => h.label),
      bruteForce(items, query, 10).map((h) => h.label),
    );
    const even = (label: number) => label % 2 === 0;
    assert.deepEqual(
      (await index.search(query, 10, even)).map((h) => h.label),
      bruteForce(items, query, 10, even).map((h) => h.label),
    );
    await index.close();
  });

  it('normalises vectors so scores are cosines whatever the input length', async () => {
    const index = await openExact();
    const long = query.map((x) => x * 7.5);
    await index.add([{ label: 1, vector: long }]);
    const [hit] = await index.search(
      query.map((x) => x * 0.01),
      1,
    );
    assert.equal(hit?.label, 1);
    assert.ok(Math.abs(hit.score - 1) < 1e-6, String(hit.score));
    await index.close();
  });

  it('upserts by label and forgets removed labels', async () => {
    const index = await openExact();
    await index.add(items.slice(0, 50));
    await index.add([{ label: 7, vector: query }]);
    assert.equal(index.size, 50);
    assert.equal((await index.search(query, 1))[0]?.label, 7);
    await index.remove([7, 9999]);
    assert.equal(index.size, 49);
    assert.ok(!(await index.search(query, 50)).some((h) => h.label === 7));
    await index.close();
  });

  it('keeps the last vector when a batch names a label twice', async () => {
    const index = await openExact();
    const other = data.next();
    await index.add([
      { label: 3, vector: other },
      { label: 3, vector: query },
    ]);
    assert.equal(index.size, 1);
    assert.ok(Math.abs((await index.search(query, 1))[0]!.score - 1) < 1e-6);
    await index.close();
  });

  it('rejects malformed input with INVALID_INPUT and a message naming the problem', async () => {
    const index = await openExact();
    const cases: Array<[() => Promise<unknown>, RegExp]> = [
      [() => index.add([{ label: 1, vector: new Float32Array(DIM + 1) }]), /32 dimensions; got 33/],
      [() => index.add([{ label: -1, vector: query }]), /label must be an integer/],
      [() => index.add([{ label: 1.5, vector: query }]), /label must be an integer/],
      [() => index.add([{ label: 1, vector: new Float32Array(DIM) }]), /all zeros/],
      [() => index.add([{ label: 1, vector: new Float32Array(DIM).fill(Number.NaN) }]), /NaN/],
      [
        () => index.add([{ label: 1, vector: [...query] as unknown as Float32Array }]),
        /Float32Array; got an array/,
      ],
      [() => index.search(new Float32Array(3), 5), /query must have 32 dimensions/],
      [() => index.search(query, -1), /k must be a whole number/],
      [() => index.remove([Number.NaN]), /label must be an integer/],
    ];
    for (const [call, message] of cases) {
      await assert.rejects(
        call,
        (error: unknown) => EngramError.is(error, 'INVALID_INPUT') && message.test(error.message),
      );
    }
    assert.equal(index.size, 0, 'a rejected batch adds nothing');
    await index.close();
  });

  it('rejects bad options at open', async () => {
    await assert.rejects(
      openVectorIndex({ dimension: 0, modelId: 'm', logger: silentLogger }),
      /dimension must be a whole number/,
    );
    await assert.rejects(openVectorIndex({ dimension: 8, modelId: ' ', logger: silentLogger }), /modelId/);
    await assert.rejects(
      openVectorIndex({ dimension: 8, modelId: 'm', logger: silentLogger, crossover: 0 }),
      /crossover must be/,
    );
  });

  it('answers k = 0 with nothing and k > size with everything', async () => {
    const index = await openExact();
    await index.add(items.slice(0, 5));
    assert.deepEqual(await index.search(query, 0), []);
    assert.equal((await index.search(query, 100)).length, 5);
    await index.close();
  });

  it('refuses calls after close with CLOSED', async () => {
    const index = await openExact();
    await index.close();
    await assert.rejects(index.search(query, 1), (error: unknown) => EngramError.is(error, 'CLOSED'));
    await assert.rejects(index.add(items.slice(0, 1)), (error: unknown) => EngramError.is(error, 'CLOSED'));
  });
});
