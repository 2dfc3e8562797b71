import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fullCollection } from '../../engine/process/idleCollector';
import { loadSqlJs } from '../../engine/store/sqlite';
import { SQL_WASM_PATH, tempDir } from '../support/temp';

test('loading sql.js keeps no copy of its module bytes beside the compiled module', async () => {
  const collect = fullCollection();
  assert.ok(collect, 'V8 gave no collection function');
  // A path of its own: loadSqlJs caches per path.
  const wasmPath = path.join(tempDir(), 'sql-wasm.wasm');
  copyFileSync(SQL_WASM_PATH, wasmPath);
  collect();
  const before = process.memoryUsage().arrayBuffers;
  const SQL = await loadSqlJs(wasmPath);
  const db = new SQL.Database();
  assert.equal(db.exec('SELECT 6 * 7')[0]?.values[0]?.[0], 42);
  db.close();
  // Handed over as `wasmBinary`, sql.js held the 690 KB file for good. A collection frees an
  // ArrayBuffer's memory through V8's sweeper thread, which may finish after the collection
  // returns (seen in a CI run on a loaded machine): collect again until it shows, for 5 s at most.
  const kept = () => process.memoryUsage().arrayBuffers - before;
  for (let tries = 0; tries < 50 && kept() >= 128 * 1024; tries++) {
    collect();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.ok(kept() < 128 * 1024, `${kept()} bytes of ArrayBuffers kept by loading sql.js`);
});

test('a missing wasm file fails the load with the file named', () => {
  assert.throws(() => loadSqlJs(path.join(tempDir(), 'missing.wasm')), /missing\.wasm/);
});
