import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Database } from 'sql.js';
import { StatementCache } from '../../engine/store/sqlAccess';
import { loadSqlJs } from '../../engine/store/sqlite';
import { NATIVE_TEXT_LENGTH, nativeTextBinds } from '../../engine/store/textBinding';
import { SQL_WASM_PATH } from '../support/temp';

const INSERT = 'INSERT INTO t (a, b, c) VALUES (?, ?, ?)';
const DUMP = 'SELECT hex(a) AS a, typeof(a) AS type, b, c FROM t ORDER BY rowid';

async function tables(): Promise<{ cached: Database; plain: Database }> {
  const SQL = await loadSqlJs(SQL_WASM_PATH);
  const open = () => {
    const db = new SQL.Database();
    db.run('CREATE TABLE t (a TEXT, b, c)');
    return db;
  };
  return { cached: open(), plain: open() };
}

const dump = (db: Database) => db.exec(DUMP)[0]?.values;

test('long texts bound natively are stored as the bytes sql.js binds, and only well-formed ones take that path', async () => {
  const { cached, plain } = await tables();
  const cache = new StatementCache(cached);
  const long = (s: string) => s.repeat(Math.ceil(NATIVE_TEXT_LENGTH / s.length) + 1);
  const texts = [
    long('plain ascii '),
    long('é ü ß 中文 '),
    long('😀 astral '), // surrogate pairs
    long('a\u0000b'), // NUL inside the text
    long('x') + '\ud83d', // cut inside a surrogate pair: left to sql.js
    '\udc00' + long('y'), // a lone low surrogate first
    'short',
    '',
  ];
  const before = nativeTextBinds();
  for (const [i, text] of texts.entries()) {
    cache.run(INSERT, [text, i, i % 2 === 0 ? long('second ') : null]);
    plain.run(INSERT, [text, i, i % 2 === 0 ? long('second ') : null]);
  }
  assert.deepEqual(dump(cached), dump(plain));
  assert.equal(
    dump(cached)?.every((row) => row[1] === 'text'),
    true,
  );
  // 4 long well-formed texts in column a, and the 4 long texts of column c.
  assert.equal(nativeTextBinds() - before, 8);
  // Read back through the same cache, as parameters of a query.
  assert.equal(cache.value('SELECT count(*) FROM t WHERE a = ?', [texts[1] as string]), 1);
  cached.close();
  plain.close();
});

test('a text larger than the scratch buffer, and texts after the module memory grew, are stored whole', async () => {
  const { cached, plain } = await tables();
  const cache = new StatementCache(cached);
  const small = 'before growth '.repeat(20);
  cache.run(INSERT, [small, 0, null]);
  plain.run(INSERT, [small, 0, null]);
  // 6 MB of text (18 MB of scratch): past the kept scratch buffer, and it grows the module's memory.
  const huge = 'ünïcödé '.repeat(750_000);
  cache.run(INSERT, [huge, 1, null]);
  plain.run(INSERT, [huge, 1, null]);
  cache.run(INSERT, [small + 'after', 2, null]);
  plain.run(INSERT, [small + 'after', 2, null]);
  assert.deepEqual(dump(cached), dump(plain));
  cached.close();
  plain.close();
});

test('a long text bound past the last parameter fails as sql.js fails it', async () => {
  const { cached, plain } = await tables();
  const cache = new StatementCache(cached);
  const long = 'z'.repeat(NATIVE_TEXT_LENGTH * 2);
  const expected = (() => {
    try {
      plain.run('INSERT INTO t (a) VALUES (?)', ['a', long]);
    } catch (error) {
      return String(error);
    }
    return 'no error';
  })();
  assert.match(expected, /range/);
  assert.throws(
    () => cache.run('INSERT INTO t (a) VALUES (?)', ['a', long]),
    (error: unknown) => String(error) === expected,
  );
  assert.deepEqual(dump(cached), dump(plain));
  cached.close();
  plain.close();
});
