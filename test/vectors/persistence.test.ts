import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { silentLogger } from '../../engine/host';
import { openVectorIndex } from '../../engine/vectors';
import type { OpenVectorIndexOptions, VectorIndex } from '../../engine/vectors/types';
import { tempDir } from '../support/temp';
import { clusteredVectors } from './syntheticVectors';

const DIM = 24;
const data = clusteredVectors({ seed: 33, dimension: DIM, clusters: 10 });
const items = data.items(500);
const queries = Array.from({ length: 25 }, () => data.next());

function open(extra: Partial<OpenVectorIndexOptions> = {}): Promise<VectorIndex> {
  return openVectorIndex({
    dimension: DIM,
    modelId: 'model-a',
    logger: silentLogger,
    crossover: 200,
    ...extra,
  });
}

async function answers(index: VectorIndex): Promise<unknown[]> {
  return Promise.all(queries.map((q) => index.search(q, 10)));
}

/** Saves an HNSW index of `items` and returns its file and its answers to `queries`. */
async function savedHnswIndex(): Promise<{ file: string; before: unknown[] }> {
  const file = path.join(tempDir(), 'vectors', 'index.bin');
  const index = await open();
  await index.add(items);
  await index.whenBuilt();
  const before = await answers(index);
  await index.save(file);
  await index.close();
  return { file, before };
}

/** The records left in hnswlib's in-memory IndexedDB (each would be a stray copy of an index). */
async function idbRecordCount(): Promise<number> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open('/hnswlib-index');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(new Error('open failed'));
  });
  const count = await new Promise<number>((resolve) => {
    const request = db.transaction('FILE_DATA').objectStore('FILE_DATA').count();
    request.onsuccess = () => resolve(request.result);
  });
  db.close();
  return count;
}

describe('vector index persistence', () => {
  it('reloads an HNSW index that answers exactly as before', async () => {
    const { file, before } = await savedHnswIndex();
    const index = await open({ file, expectedCount: 500 });
    assert.equal(index.needsRebuild, false);
    assert.equal(index.rebuildReason, null);
    assert.deepEqual(index.stats(), {
      mode: 'hnsw',
      graphSize: 500,
      exactSize: 0,
      crossover: 200,
      failedBuilds: 0,
    });
    assert.deepEqual(await answers(index), before);
    // Still a live index: it takes adds and removes after the reload.
    const extra = data.items(5, 9000);
    await index.add(extra);
    await index.remove([0]);
    assert.equal(index.size, 504);
    assert.equal((await index.search(extra[2]!.vector, 1))[0]?.label, 9002);
    await index.close();
    assert.equal(await idbRecordCount(), 0, 'no copy of an index stays in IndexedDB');
    assert.deepEqual(
      readdirSync(path.dirname(file)).filter((name) => name.endsWith('.tmp')),
      [],
      'no temp file is left',
    );
  });

  it('reloads an index below the crossover from its exact section', async () => {
    const file = path.join(tempDir(), 'small.bin');
    const index = await open();
    await index.add(items.slice(0, 150));
    await index.remove([3]);
    const before = await answers(index);
    await index.save(file);
    await index.close();
    const reopened = await open({
      file,
      expectedLabels: items
        .slice(0, 150)
        .map((i) => i.label)
        .filter((l) => l !== 3),
    });
    assert.equal(reopened.needsRebuild, false);
    assert.equal(reopened.stats().mode, 'exact');
    assert.deepEqual(await answers(reopened), before);
    await reopened.close();
  });

  it('starts empty and asks for a rebuild when the file is stale or foreign', async () => {
    const { file } = await savedHnswIndex();
    const labels = items.map((item) => item.label);
    const cases: Array<[Partial<OpenVectorIndexOptions>, string]> = [
      [{ modelId: 'model-b' }, 'model-changed'],
      [{ dimension: DIM + 1 }, 'dimension-changed'],
      [{ expectedCount: 499 }, 'count-mismatch'],
      [{ expectedLabels: [...labels.slice(1), 12_345] }, 'labels-mismatch'],
      [{ file: path.join(path.dirname(file), 'absent.bin') }, 'missing'],
    ];
    for (const [options, reason] of cases) {
      const index = await open({ file, ...options });
      assert.equal(index.needsRebuild, true, reason);
      assert.equal(index.rebuildReason, reason);
      assert.equal(index.size, 0);
      await index.close();
    }
    const same = await open({ file, expectedCount: 500, expectedLabels: labels });
    assert.equal(same.needsRebuild, false, 'the matching expectations load it');
    await same.close();
  });

  it('treats a damaged, truncated or foreign file as unreadable', async () => {
    const { file } = await savedHnswIndex();
    const bytes = readFileSync(file);
    const damaged = Buffer.from(bytes);
    damaged.writeUInt8(damaged.readUInt8(damaged.length - 100) ^ 0xff, damaged.length - 100);
    const variants = {
      damaged,
      truncated: bytes.subarray(0, bytes.length - 10),
      foreign: Buffer.from('SQLite format 3\0 and then some'),
    };
    for (const [name, content] of Object.entries(variants)) {
      const copy = path.join(path.dirname(file), `${name}.bin`);
      writeFileSync(copy, content);
      const index = await open({ file: copy });
      assert.equal(index.rebuildReason, 'unreadable', name);
      assert.equal(index.size, 0);
      await index.close();
    }
  });

  it('rebuilds from the caller after a stale file and saves over it', async () => {
    const { file } = await savedHnswIndex();
    const stale = await open({ file, modelId: 'model-b' });
    assert.equal(stale.needsRebuild, true);
    await stale.add(items);
    await stale.save(file); // waits for the build the add started
    await stale.close();
    const fresh = await open({ file, modelId: 'model-b', expectedCount: 500 });
    assert.equal(fresh.needsRebuild, false);
    assert.equal(fresh.stats().mode, 'hnsw');
    await fresh.close();
  });
});
