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
  collect();
  // Handed over as `wasmBinary`, sql.js held the 690 KB file for good.
  const kept = process.memoryUsage().arrayBuffers - before;
  assert.ok(kept < 128 * 1024, `${kept} bytes of ArrayBuffers kept by loading sql.js`);
});

test('a missing wasm file fails the load with the file named', () => {
  assert.throws(() => loadSqlJs(path.join(tempDir(), 'missing.wasm')), /missing\.wasm/);
});
