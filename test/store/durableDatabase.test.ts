import assert from 'node:assert/strict';
import { appendFileSync, existsSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { EngramError } from '../../engine/errors';
import { DurableDatabase } from '../../engine/store/durableDatabase';
import { snapshotQuickChecks } from '../../engine/store/snapshotFile';
import { decodedRecordCount } from '../../engine/store/statementLog';
import type { Migration } from '../../engine/store/migrate';
import { loadSqlJs } from '../../engine/store/sqlite';
import { openDurable } from '../support/durable';
import { SQL_WASM_PATH, tempDir } from '../support/temp';
import { waitUntil } from '../support/waitUntil';

const migrations: Migration[] = [
  {
    version: 1,
    name: 'items',
    up: (tx) => tx.run('CREATE TABLE items (id INTEGER PRIMARY KEY, v TEXT, b BLOB)'),
  },
];

function open(file: string, extra: Partial<Parameters<typeof DurableDatabase.open>[0]> = {}) {
  return openDurable(file, migrations, extra);
}

const count = (db: DurableDatabase) => db.read((r) => r.value<number>('SELECT count(*) FROM items'));

describe('DurableDatabase', () => {
  it('creates a database, its journal and the schema on first open', async () => {
    const file = path.join(tempDir(), 'memory.db');
    const db = await open(file);
    assert.equal(count(db), 0);
    await db.close();
    assert.ok(existsSync(file));
    assert.ok(existsSync(`${file}.journal`));
  });

  it('keeps its file locked between transactions, and reopens what it wrote', async () => {
    // Nothing else opens the file in sql.js's memory file system: taking and releasing its locks
    // around every transaction (and every statement outside one) was CPU for nothing.
    const file = path.join(tempDir(), 'memory.db');
    const db = await open(file);
    assert.equal(
      db.read((r) => r.value<string>('PRAGMA locking_mode')),
      'exclusive',
    );
    db.write((tx) => tx.run('INSERT INTO items (v) VALUES (?)', ['a']));
    await db.snapshot();
    db.write((tx) => tx.run('INSERT INTO items (v) VALUES (?)', ['b']));
    await db.close();
    const reopened = await open(file);
    assert.equal(count(reopened), 2);
    assert.equal(
      reopened.read((r) => r.value<string>('PRAGMA locking_mode')),
      'exclusive',
    );
    await reopened.close();
  });

  it('keeps acknowledged writes without any snapshot (journal replay)', async () => {
    const file = path.join(tempDir(), 'memory.db');
    const db = await open(file);
    for (let i = 0; i < 20; i++)
      db.write((tx) => tx.run('INSERT INTO items (v, b) VALUES (?, ?)', [`v${i}`, new Uint8Array([i, 255])]));
    const before = statSync(file).mtimeMs;
    // Simulate a crash: never close, never snapshot. The snapshot file is untouched.
    assert.equal(statSync(file).mtimeMs, before);
    const reopened = await open(file);
    assert.equal(count(reopened), 20);
    const blob = reopened.read((r) => r.value<Uint8Array>('SELECT b FROM items WHERE v = ?', ['v7']));
    assert.deepEqual([...(blob ?? [])], [7, 255]);
    await reopened.close();
  });

  it('rolls back a transaction whose function throws and journals nothing', async () => {
    const file = path.join(tempDir(), 'memory.db');
    const db = await open(file);
    const seq = db.lastSeq;
    assert.throws(() =>
      db.write((tx) => {
        tx.run('INSERT INTO items (v) VALUES (?)', ['x']);
        throw new Error('boom');
      }),
    );
    assert.equal(count(db), 0);
    assert.equal(db.lastSeq, seq);
    const reopened = await open(file);
    assert.equal(count(reopened), 0);
    await reopened.close();
  });

  it('snapshots, keeps the previous snapshot, and compacts the journal to what follows it', async () => {
    const file = path.join(tempDir(), 'memory.db');
    const db = await open(file);
    db.write((tx) => tx.run('INSERT INTO items (v) VALUES (?)', ['a']));
    await db.snapshot();
    db.write((tx) => tx.run('INSERT INTO items (v) VALUES (?)', ['b']));
    await db.snapshot();
    const stats = db.stats();
    assert.equal(stats.snapshotSeq, stats.seq);
    // The journal keeps the records after the previous snapshot: exactly the 'b' insert.
    assert.equal(stats.journalRecords, 1);
    assert.ok(existsSync(`${file}.prev`));
    await db.close();
    const reopened = await open(file);
    assert.equal(count(reopened), 2);
    await reopened.close();
  });

  it('cuts a torn journal tail and never half-applies it', async () => {
    const file = path.join(tempDir(), 'memory.db');
    const db = await open(file);
    db.write((tx) => tx.run('INSERT INTO items (v) VALUES (?)', ['kept']));
    const size = statSync(`${file}.journal`).size;
    db.write((tx) => {
      tx.run('INSERT INTO items (v) VALUES (?)', ['torn-1']);
      tx.run('INSERT INTO items (v) VALUES (?)', ['torn-2']);
    });
    const full = statSync(`${file}.journal`).size;
    truncateSync(`${file}.journal`, size + Math.floor((full - size) / 2));
    const reopened = await open(file);
    assert.deepEqual(
      reopened.read((r) => r.all<{ v: string }>('SELECT v FROM items ORDER BY id')).map((row) => row.v),
      ['kept'],
    );
    assert.equal(statSync(`${file}.journal`).size, size);
    // Writing after the cut works and survives.
    reopened.write((tx) => tx.run('INSERT INTO items (v) VALUES (?)', ['after']));
    const again = await open(file);
    assert.equal(count(again), 2);
    await again.close();
  });

  it('refuses a journal damaged in a record the snapshot lacks, with intact records after it, and changes nothing', async () => {
    const file = path.join(tempDir(), 'memory.db');
    const db = await open(file);
    db.write((tx) => tx.run('INSERT INTO items (v) VALUES (?)', ['one']));
    const afterOne = statSync(`${file}.journal`).size;
    db.write((tx) => tx.run('INSERT INTO items (v) VALUES (?)', ['two']));
    db.write((tx) => tx.run('INSERT INTO items (v) VALUES (?)', ['three']));
    const bytes = readFileSync(`${file}.journal`);
    bytes[afterOne + 12] = bytes[afterOne + 12]! ^ 0xff; // flip a payload byte of record 'two'
    writeFileSync(`${file}.journal`, bytes);
    await assert.rejects(
      open(file),
      (error: unknown) => EngramError.is(error, 'CORRUPT') && /recover/.test(error.message),
    );
    assert.deepEqual(readFileSync(`${file}.journal`), bytes);
  });

  it('refuses a corrupt database file without touching it, and recovers from .prev + journal', async () => {
    const file = path.join(tempDir(), 'memory.db');
    const db = await open(file);
    db.write((tx) => tx.run('INSERT INTO items (v) VALUES (?)', ['a']));
    await db.snapshot();
    db.write((tx) => tx.run('INSERT INTO items (v) VALUES (?)', ['b']));
    await db.snapshot();
    db.write((tx) => tx.run('INSERT INTO items (v) VALUES (?)', ['c']));
    await db.close();
    const garbage = Buffer.alloc(8192, 7);
    writeFileSync(file, garbage);
    await assert.rejects(open(file), (error: unknown) => {
      assert.ok(EngramError.is(error, 'CORRUPT'));
      assert.match(error.message, /memory\.db\.prev/);
      return true;
    });
    assert.deepEqual(readFileSync(file), garbage);
    const { keptAside, rebuiltFrom } = await DurableDatabase.recover({
      path: file,
      sql: await loadSqlJs(SQL_WASM_PATH),
    });
    assert.equal(rebuiltFrom, `${file}.prev`);
    assert.deepEqual(readFileSync(keptAside[0]!), garbage);
    const recovered = await open(file);
    assert.deepEqual(
      recovered.read((r) => r.all<{ v: string }>('SELECT v FROM items ORDER BY id')).map((row) => row.v),
      ['a', 'b', 'c'],
    );
    await recovered.close();
  });

  it('refuses a journal that belongs to another database', async () => {
    const dir = tempDir();
    const a = path.join(dir, 'a.db');
    const b = path.join(dir, 'b.db');
    await (await open(a)).close();
    await (await open(b)).close();
    writeFileSync(`${a}.journal`, readFileSync(`${b}.journal`));
    await assert.rejects(
      open(a),
      (error: unknown) => EngramError.is(error, 'CORRUPT') && /belongs to database/.test(error.message),
    );
  });

  it('refuses to open when the database is missing but its journal exists', async () => {
    const file = path.join(tempDir(), 'memory.db');
    await (await open(file)).close();
    const { unlinkSync } = await import('node:fs');
    unlinkSync(file);
    await assert.rejects(open(file), (error: unknown) => EngramError.is(error, 'CORRUPT'));
    assert.ok(!existsSync(file));
  });

  it('compacts the journal again and again in one process (the compacted file stays readable)', async () => {
    const file = path.join(tempDir(), 'memory.db');
    const db = await open(file, { snapshot: { maxJournalBytes: 2048, idleMs: 60_000 } });
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 10; i++)
        db.write((tx) => tx.run('INSERT INTO items (v) VALUES (?)', ['z'.repeat(200)]));
      await db.snapshot();
    }
    // The journal keeps only what follows the previous snapshot (that one stays as `.prev`).
    assert.ok(db.stats().journalRecords <= 20, `journal holds ${db.stats().journalRecords} records`);
    await db.close();
    assert.equal(count(await open(file)), 50);
  });

  it('snapshots by itself when the journal grows past the limit', async () => {
    const file = path.join(tempDir(), 'memory.db');
    const db = await open(file, { snapshot: { maxJournalBytes: 2048, idleMs: 60_000 } });
    for (let i = 0; i < 40; i++)
      db.write((tx) => tx.run('INSERT INTO items (v) VALUES (?)', ['x'.repeat(100)]));
    await waitUntil(() => db.stats().snapshotSeq > 0, 10_000, 'a snapshot');
    await db.close();
    assert.equal(count(await open(file)), 40);
  });

  it('exports no snapshot by size during a bulk write, and one after it', async () => {
    const file = path.join(tempDir(), 'memory.db');
    const db = await open(file, { snapshot: { maxJournalBytes: 2048, idleMs: 60_000 } });
    const before = db.stats().snapshotSeq;
    await db.bulk(async () => {
      for (let i = 0; i < 40; i++) {
        db.write((tx) => tx.run('INSERT INTO items (v) VALUES (?)', ['x'.repeat(100)]));
        await new Promise((resolve) => setImmediate(resolve));
      }
      assert.equal(db.stats().snapshotSeq, before, 'no snapshot while it runs');
    });
    await waitUntil(() => db.stats().snapshotSeq === db.stats().seq, 10_000, 'the snapshot after it');
    await db.close();
    assert.equal(count(await open(file)), 40);
  });

  it('during a bulk write, snapshots once the journal outgrows the database (replay stays bounded)', async () => {
    const file = path.join(tempDir(), 'memory.db');
    const db = await open(file, { snapshot: { maxJournalBytes: 2048, idleMs: 60_000 } });
    db.write((tx) => tx.run('INSERT INTO items (v) VALUES (?)', ['first']));
    const before = db.stats().snapshotSeq;
    let updates = 0;
    // One row rewritten: the journal grows by each update, the database stays a few pages.
    await db.bulk(async () => {
      while (db.stats().snapshotSeq === before && updates < 2000) {
        db.write((tx) => tx.run('UPDATE items SET v = ?', [`${'x'.repeat(1000)}${updates}`]));
        updates++;
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
    assert.notEqual(db.stats().snapshotSeq, before, `a snapshot during the bulk write (${updates} updates)`);
    assert.ok(updates > 10, `not at the 2 KiB journal limit already (${updates} updates)`);
    await db.close();
    const reopened = await open(file);
    assert.equal(count(reopened), 1);
  });

  it('does not leave garbage behind an appended stray byte sequence', async () => {
    const file = path.join(tempDir(), 'memory.db');
    const db = await open(file);
    db.write((tx) => tx.run('INSERT INTO items (v) VALUES (?)', ['a']));
    appendFileSync(`${file}.journal`, Buffer.from([1, 2, 3]));
    const reopened = await open(file);
    reopened.write((tx) => tx.run('INSERT INTO items (v) VALUES (?)', ['b']));
    assert.equal(count(await open(file)), 2);
  });

  it('closes cleanly while background snapshots are running and writes keep arriving', async () => {
    const file = path.join(tempDir(), 'memory.db');
    const db = await open(file, {
      snapshot: { maxJournalBytes: 1024, idleMs: 60_000, closeJournalBytes: 0 },
    });
    let written = 0;
    const write = () => {
      db.write((tx) => tx.run('INSERT INTO items (v) VALUES (?)', ['y'.repeat(300)]));
      written++;
    };
    for (let i = 0; i < 10; i++) write(); // each past the limit starts a snapshot in the background
    const closing = db.close();
    // Writes acknowledged while close waits for the snapshot are kept too, and a second close
    // (two owners shutting down) waits for the first instead of closing the journal under it.
    write();
    const again = db.close();
    write();
    await Promise.all([closing, again]);
    assert.throws(write, (error: unknown) => EngramError.is(error, 'CLOSED'));
    assert.equal(count(await open(file)), written);
  });

  it('a reopen decodes only the journal records its snapshot lacks (the rest stay for .prev)', async () => {
    const file = path.join(tempDir(), 'memory.db');
    const db = await open(file);
    for (let i = 0; i < 30; i++) db.write((tx) => tx.run('INSERT INTO items (v) VALUES (?)', [`v${i}`]));
    await db.snapshot();
    for (let i = 0; i < 3; i++) db.write((tx) => tx.run('INSERT INTO items (v) VALUES (?)', [`w${i}`]));
    await db.close();
    const before = decodedRecordCount();
    const reopened = await open(file);
    // The journal still holds the 30 records the snapshot has (with the migration's); 3 are replayed.
    assert.ok(reopened.stats().journalRecords > 30, JSON.stringify(reopened.stats()));
    assert.equal(decodedRecordCount() - before, 3);
    assert.equal(count(reopened), 33);
    await reopened.close();
  });

  it('opens a snapshot it wrote without quick_check, and checks one whose bytes changed since', async () => {
    const file = path.join(tempDir(), 'memory.db');
    const db = await open(file);
    for (let i = 0; i < 5; i++) db.write((tx) => tx.run('INSERT INTO items (v) VALUES (?)', [`v${i}`]));
    await db.snapshot();
    await db.close();
    let before = snapshotQuickChecks();
    const reopened = await open(file);
    assert.equal(snapshotQuickChecks() - before, 0, 'bytes as written: no quick_check');
    assert.equal(count(reopened), 5);
    await reopened.close();

    // The same database with one more byte: not what was written, so it is checked again.
    writeFileSync(file, Buffer.concat([readFileSync(file), Buffer.alloc(1)]));
    before = snapshotQuickChecks();
    const changed = await open(file);
    assert.equal(snapshotQuickChecks() - before, 1);
    await changed.close();
  });
});
