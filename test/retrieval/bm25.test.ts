import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bm25FromMatchInfo, bm25Score, decodeMatchInfo, idf, registerBm25 } from '../../engine/lexical/bm25';
import { loadSqlJs } from '../../engine/store/sqlite';
import { SQL_WASM_PATH } from '../support/temp';

describe('BM25 over FTS4 matchinfo', () => {
  it('decodes pcnalx', () => {
    // 1 phrase, 2 columns, 10 rows, avg [4, 2], this row [8, 1], hits: col0 [2, 5, 3], col1 [0, 1, 1]
    const blob = new Uint8Array(new Uint32Array([1, 2, 10, 4, 2, 8, 1, 2, 5, 3, 0, 1, 1]).buffer);
    const info = decodeMatchInfo(blob);
    assert.deepEqual(info, {
      phrases: 1,
      columns: 2,
      rows: 10,
      averageLength: [4, 2],
      length: [8, 1],
      hits: [
        [
          [2, 5, 3],
          [0, 1, 1],
        ],
      ],
    });
  });

  it('matches a hand-computed score', () => {
    const info = decodeMatchInfo(
      new Uint8Array(new Uint32Array([1, 2, 10, 4, 2, 8, 1, 2, 5, 3, 0, 1, 1]).buffer),
    );
    // Column 0 only (column 1 has no hit): idf = ln(1 + (10 - 3 + 0.5) / (3 + 0.5)) = ln(1 + 7.5/3.5)
    const expectedIdf = Math.log(1 + 7.5 / 3.5);
    assert.ok(Math.abs(idf(10, 3) - expectedIdf) < 1e-12);
    // tf = 2, len = 8, avg = 4: norm = 1.2 * (1 - 0.75 + 0.75 * 2) = 2.1; tf part = 2 * 2.2 / (2 + 2.1)
    const expected = 0.5 * expectedIdf * ((2 * 2.2) / (2 + 2.1));
    assert.ok(Math.abs(bm25Score(info, [0.5, 1]) - expected) < 1e-12);
  });

  it('scores straight from the blob exactly as from the decoded match info', () => {
    // 2 phrases, 3 columns, at an odd offset in its buffer as SQLite's blobs may be.
    const words = [2, 3, 40, 4, 2, 6, 8, 1, 0, 2, 5, 3, 0, 1, 1, 1, 1, 1, 3, 9, 7, 0, 2, 2, 1, 4, 4];
    const padded = new Uint8Array(1 + words.length * 4);
    const view = new DataView(padded.buffer);
    words.forEach((w, i) => view.setUint32(1 + i * 4, w, true));
    const blob = padded.subarray(1);
    for (const weights of [
      [1, 1, 1],
      [0.5, 0, 2],
    ])
      assert.ok(
        Math.abs(bm25FromMatchInfo(blob, weights) - bm25Score(decodeMatchInfo(blob), weights)) < 1e-12,
      );
  });

  it('ranks inside SQLite: rarer terms and shorter documents score higher', async () => {
    const SQL = await loadSqlJs(SQL_WASM_PATH);
    const db = new SQL.Database();
    registerBm25(db);
    db.exec('CREATE VIRTUAL TABLE f USING fts4(body)');
    const docs = ['alpha beta', 'alpha beta gamma delta epsilon zeta', 'beta', 'beta beta', 'gamma'];
    docs.forEach((body, i) => db.run('INSERT INTO f (docid, body) VALUES (?, ?)', [i + 1, body]));
    const rank = (query: string) =>
      db
        .exec(
          `SELECT docid FROM f WHERE f MATCH ? ORDER BY bm25(matchinfo(f, 'pcnalx'), 1.0, 0, 0, 0) DESC`,
          [query],
        )[0]!
        .values.map((r) => r[0]);
    // "alpha" is in 2 docs; the shorter one wins.
    assert.deepEqual(rank('alpha'), [1, 2]);
    // "beta" is common; doc 4 has it twice in a short doc.
    assert.equal(rank('beta')[0], 4);
    // With OR, the rare "alpha" outweighs the common "beta".
    assert.deepEqual(rank('alpha OR beta').slice(0, 2), [1, 2]);
    db.close();
  });

  it("scores through sql.js's exports, not create_function, with the same numbers and errors", async () => {
    const SQL = await loadSqlJs(SQL_WASM_PATH);
    const native = new SQL.Database();
    native.create_function = () => {
      throw new Error('create_function was used');
    };
    registerBm25(native);
    const wrapped = new SQL.Database();
    wrapped.create_function('bm25', (blob: unknown, w0: unknown, w1: unknown, w2: unknown, w3: unknown) =>
      blob instanceof Uint8Array ? bm25FromMatchInfo(blob, [w0, w1, w2, w3].map(Number)) : 0,
    );
    const docs = ['alpha beta', 'alpha beta gamma delta epsilon zeta', 'beta', 'beta beta', 'gamma alpha'];
    const scores = (db: typeof native, weights: string) => {
      db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS f USING fts4(a, b)');
      if (db.exec('SELECT count(*) FROM f')[0]!.values[0]![0] === 0)
        docs.forEach((body, i) =>
          db.run('INSERT INTO f (docid, a, b) VALUES (?, ?, ?)', [i + 1, body, docs[4 - i]!]),
        );
      return db.exec(
        `SELECT docid, bm25(matchinfo(f, 'pcnalx'), ${weights}) FROM f WHERE f MATCH 'alpha OR beta' ORDER BY docid`,
      )[0]!.values;
    };
    for (const weights of ['1.0, 0.5, 0, 0', "1, '0.25', NULL, 2", 'NULL, 1, 0, 0'])
      assert.deepEqual(scores(native, weights), scores(wrapped, weights), weights);
    // A 40 MB blob grows the module's memory, which detaches the buffer the function read before.
    native.exec('SELECT length(randomblob(40000000))');
    assert.deepEqual(scores(native, '1, 1, 1, 1'), scores(wrapped, '1, 1, 1, 1'), 'after the memory grew');
    // Not a blob: 0, as before; an empty blob: the same error as create_function's.
    const value = (db: typeof native, sql: string) => {
      try {
        return db.exec(sql)[0]!.values[0]![0];
      } catch (error) {
        return String(error);
      }
    };
    for (const sql of ["SELECT bm25('text', 1, 1, 1, 1)", "SELECT bm25(x'', 1, 1, 1, 1)"])
      assert.equal(value(native, sql), value(wrapped, sql), sql);
    native.close();
    wrapped.close();
  });
});
