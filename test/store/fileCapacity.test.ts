import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { DurableDatabase } from '../../engine/store/durableDatabase';
import { fileCapacity, openDatabase, readFileWithRoom, roomFor } from '../../engine/store/fileCapacity';
import { loadSqlJs } from '../../engine/store/sqlite';
import type { Migration } from '../../engine/store/migrate';
import { openDurable } from '../support/durable';
import { SQL_WASM_PATH, tempDir } from '../support/temp';

const migrations: Migration[] = [
  { version: 1, name: 'blobs', up: (tx) => tx.run('CREATE TABLE blobs (id INTEGER PRIMARY KEY, b BLOB)') },
];

const MIB = 1024 * 1024;

function open(file: string): Promise<DurableDatabase> {
  // No snapshot while the test writes: the crash case must rebuild from the journal.
  return openDurable(file, migrations, { snapshot: { maxJournalBytes: 1024 * MIB, idleMs: 60_000 } });
}

/** One 1 MiB row in its own commit (synced in the background: the test needs no fdatasync each). */
function insertMiB(db: DurableDatabase, id: number): void {
  db.write((tx) => tx.run('INSERT INTO blobs (id, b) VALUES (?, ?)', [id, new Uint8Array(MIB).fill(id)]), {
    durable: false,
  });
}

/** Every row's id, length and first byte: what must survive. */
function contents(db: DurableDatabase): string {
  return JSON.stringify(
    db.read((r) => r.all('SELECT id, length(b) AS n, hex(substr(b, 1, 1)) AS first FROM blobs ORDER BY id')),
  );
}

describe('the database file grows in reserved room (fileCapacity.ts)', () => {
  it('keeps MEMFS writing into the same room while the file grows far past it, with room ahead', async () => {
    const file = path.join(tempDir(), 'memory.db');
    const db = await open(file);
    const opened = db.fileRoom();
    // To twice the room given at open (32 MiB): MEMFS alone would have copied the file at 32 MiB.
    for (let id = 1; id <= 64; id++) {
      insertMiB(db, id);
      const { fileBytes, capacityBytes } = db.fileRoom();
      // Non-zero capacity: MEMFS still writes into the resizable buffer (the file's header in it
      // is the committed one), so no commit copied the file.
      assert.ok(capacityBytes > 0, `no room kept after ${id} MiB (MEMFS copied the file)`);
      assert.ok(capacityBytes - fileBytes >= roomFor(fileBytes), `room fell to ${capacityBytes - fileBytes}`);
      assert.ok(capacityBytes <= 1.5 * fileBytes + 64 * MIB, `reserved ${capacityBytes} for ${fileBytes}`);
    }
    assert.ok(db.fileRoom().fileBytes > 64 * MIB && opened.fileBytes < MIB);
    const written = contents(db);

    // A crash: the process dies without closing, so the reopen rebuilds from the journal.
    const crashed = await open(file);
    assert.equal(contents(crashed), written);
    assert.ok(crashed.fileRoom().capacityBytes > crashed.fileRoom().fileBytes);
    await crashed.close();

    await db.close();
    const reopened = await open(file);
    assert.equal(contents(reopened), written);
    await reopened.close();
  });

  it('lets the room go, and keeps every row, when one transaction outgrows it', async () => {
    const file = path.join(tempDir(), 'memory.db');
    const db = await open(file);
    const { fileBytes, capacityBytes } = db.fileRoom();
    assert.ok(capacityBytes > 0);
    // One commit larger than the room: MEMFS has to copy the file elsewhere.
    const rows = Math.ceil((capacityBytes - fileBytes) / MIB) + 8;
    db.write((tx) => {
      for (let id = 1; id <= rows; id++)
        tx.run('INSERT INTO blobs (id, b) VALUES (?, ?)', [id, new Uint8Array(MIB)]);
    });
    // The stale buffer is dropped (holding it would double the memory), the database goes on.
    assert.equal(db.fileRoom().capacityBytes, 0);
    insertMiB(db, rows + 1);
    const written = contents(db);
    await db.close();
    const reopened = await open(file);
    assert.equal(contents(reopened), written);
    assert.equal(
      reopened.read((r) => r.value<number>('SELECT count(*) FROM blobs')),
      rows + 1,
    );
    await reopened.close();
  });

  it('keeps the buffer readFileWithRoom read the file into as the database file: no copy', async () => {
    const sql = await loadSqlJs(SQL_WASM_PATH);
    const seed = new sql.Database();
    seed.run('CREATE TABLE t (n INTEGER)');
    const file = path.join(tempDir(), 'plain.db');
    writeFileSync(file, seed.export());
    seed.close();
    const bytes = readFileWithRoom(file);
    assert.deepEqual(bytes, readFileSync(file));
    const db = openDatabase(sql, bytes);
    assert.ok((fileCapacity(db)?.bytes ?? 0) >= bytes.length + roomFor(bytes.length));
    // SQLite bumps the header's change counter (offset 24) on a commit: in these very bytes.
    const counter = bytes.readUInt32BE(24);
    db.run('INSERT INTO t VALUES (1)');
    assert.equal(bytes.readUInt32BE(24), counter + 1);
    db.close();
  });
});
