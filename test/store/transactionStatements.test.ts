import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LocalTransactions } from '../../engine/store/localTransactions';
import { emptyDatabase } from '../../engine/store/snapshotFile';
import { loadSqlJs } from '../../engine/store/sqlite';
import type { TransactionRecord } from '../../engine/store/statementLog';
import { SQL_WASM_PATH } from '../support/temp';

describe('write transactions', () => {
  it('compile no statement once warm: BEGIN, savepoints and COMMIT are prepared once', async () => {
    const SQL = await loadSqlJs(SQL_WASM_PATH);
    const db = emptyDatabase(SQL, '0'.repeat(32));
    db.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, v TEXT)');
    const records: TransactionRecord[] = [];
    const transactions = new LocalTransactions(db, 0);
    let next = 0;
    const write = (fail = false) =>
      transactions.write(
        (tx) => {
          tx.run('INSERT INTO items (v) VALUES (?)', [`outer ${next++}`]);
          try {
            transactions.write(
              (nested) => {
                nested.run('INSERT INTO items (v) VALUES (?)', [`nested ${next++}`]);
                if (fail) throw new Error('undo the nested write');
              },
              0,
              () => undefined,
            );
          } catch {
            // The nested write's failure undoes only its own rows.
          }
        },
        0,
        (record) => records.push(record),
      );
    write();
    write(true);
    const compiled = { exec: 0, prepare: 0 };
    const exec = db.exec.bind(db);
    const prepare = db.prepare.bind(db);
    db.exec = (...args: Parameters<typeof db.exec>) => (compiled.exec++, exec(...args));
    db.prepare = (...args: Parameters<typeof db.prepare>) => (compiled.prepare++, prepare(...args));
    for (let i = 0; i < 5; i++) write(i % 2 === 1);
    assert.deepEqual(compiled, { exec: 0, prepare: 0 });
    assert.equal(records.length, 7);
    assert.equal(transactions.seq, 7);
    const rows = transactions.read((r) => r.value<number>('SELECT count(*) FROM items'));
    assert.equal(rows, 7 + 4, 'every outer row, and the nested rows of the writes that did not fail');
    transactions.clear();
    db.close();
  });
});
