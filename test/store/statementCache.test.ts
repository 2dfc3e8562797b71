import assert from 'node:assert/strict';
import { test } from 'node:test';
import { paddedList } from '../../engine/store/idLists';
import { MAX_CACHED_STATEMENTS, StatementCache } from '../../engine/store/sqlAccess';
import { loadSqlJs } from '../../engine/store/sqlite';
import { SQL_WASM_PATH } from '../support/temp';

test('statements whose text varies with their input are freed once the cache is full, and still answer', async () => {
  const SQL = await loadSqlJs(SQL_WASM_PATH);
  const db = new SQL.Database();
  db.run('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
  const cache = new StatementCache(db);
  const hot = 'SELECT v FROM t WHERE id = ?';
  const rows = MAX_CACHED_STATEMENTS * 3;
  for (let id = 1; id <= rows; id++) cache.run('INSERT INTO t (id, v) VALUES (?, ?)', [id, `v${id}`]);
  // An IN list of every length up to `rows`, unpadded, as a caller that forgot paddedList sends them.
  for (let n = 1; n <= rows; n++) {
    const ids = Array.from({ length: n }, (_, i) => i + 1);
    const got = cache.value<number>(
      `SELECT count(*) FROM t WHERE id IN (${ids.map(() => '?').join(', ')})`,
      ids,
    );
    assert.equal(got, n);
    // A statement used all along stays prepared and right.
    assert.equal(cache.get<{ v: string }>(hot, [n])?.v, `v${n}`);
  }
  assert.ok(cache.size <= MAX_CACHED_STATEMENTS, `${cache.size} statements kept`);
  // An evicted text is prepared again on its next use.
  assert.equal(cache.value<number>('SELECT count(*) FROM t WHERE id IN (?)', [7]), 1);
  const padded = paddedList([1, 2, 3]);
  assert.equal(cache.value<number>(`SELECT count(*) FROM t WHERE id IN (${padded.marks})`, padded.params), 3);
  cache.clear();
  assert.equal(cache.size, 0);
  db.close();
});
