import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { EngineDispatcher } from '../../engine/api/engineDispatcher';
import { silentLogger } from '../../engine/host';
import { DEFAULT_PAGE_CACHE_KIB } from '../../engine/store/snapshotFile';
import { openDurable } from '../support/durable';
import { SQL_WASM_PATH, tempDir } from '../support/temp';

// The compat bridge asks for a small SQLite page cache (engine/mcp/compatFootprint.ts): the
// option must reach the open database, from the host options down, and a bad size must be refused.

const cacheKib = (value: number | undefined) => -(value ?? NaN);

describe('SQLite page cache of a store', () => {
  it('is 32 MiB unless its owner asks, and the size asked for when it does', async () => {
    const plain = await openDurable(path.join(tempDir(), 'plain.db'), []);
    const small = await openDurable(path.join(tempDir(), 'small.db'), [], { pageCacheKib: 2048 });
    try {
      assert.equal(cacheKib(plain.read((r) => r.value<number>('PRAGMA cache_size'))), DEFAULT_PAGE_CACHE_KIB);
      assert.equal(cacheKib(small.read((r) => r.value<number>('PRAGMA cache_size'))), 2048);
    } finally {
      await plain.close();
      await small.close();
    }
  });

  it('reaches the database of an engine host opened with pageCacheKib', async () => {
    const host = await EngineDispatcher.open({
      dbPath: path.join(tempDir(), 'memory.db'),
      sqlWasmPath: SQL_WASM_PATH,
      logger: silentLogger,
      clock: Date.now,
      snapshot: { idleMs: 60_000 },
      embedding: null,
      pageCacheKib: 2048,
    });
    try {
      assert.equal(cacheKib(host.store.read((r) => r.value<number>('PRAGMA cache_size'))), 2048);
    } finally {
      await host.close();
    }
  });

  it('refuses a size that is not a whole number of KiB >= 64, naming it, and creates nothing', async () => {
    for (const bad of [10, 1.5, Number.NaN]) {
      const dir = tempDir();
      await assert.rejects(
        openDurable(path.join(dir, 'bad.db'), [], { pageCacheKib: bad }),
        new RegExp(`^EngramError: page cache must be a whole number of KiB >= 64, got ${bad}$`),
      );
      assert.deepEqual(readdirSync(dir), []);
    }
  });
});
