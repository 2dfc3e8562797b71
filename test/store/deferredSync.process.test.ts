import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { describe, it } from 'node:test';
import { DERIVED_WRITE } from '../../engine/store/durableDatabase';
import type { DurableDatabase } from '../../engine/store/durableDatabase';
import type { Migration } from '../../engine/store/migrate';
import { openDurable } from '../support/durable';
import { bundledFixture } from '../support/fixtureBundle';
import { tempDir } from '../support/temp';

const migrations: Migration[] = [
  { version: 1, name: 'items', up: (tx) => tx.run('CREATE TABLE items (id INTEGER PRIMARY KEY, v TEXT)') },
];

function open(file: string): Promise<DurableDatabase> {
  return openDurable(file, migrations);
}

const values = (db: DurableDatabase) =>
  db.read((r) => r.all<{ v: string }>('SELECT v FROM items ORDER BY id')).map((row) => row.v);

describe('writes with the fdatasync in the background (derived data)', () => {
  it('are journaled at once, reach the disk soon after, and a durable write syncs them with itself', async () => {
    const file = path.join(tempDir(), 'memory.db');
    const db = await open(file);
    db.write((tx) => tx.run("INSERT INTO items (v) VALUES ('derived 1')"), DERIVED_WRITE);
    // The background fdatasync cannot have finished: its callback runs on a later turn.
    assert.equal(db.stats().journalSynced, false);
    await db.syncJournal();
    assert.equal(db.stats().journalSynced, true);

    db.write((tx) => tx.run("INSERT INTO items (v) VALUES ('derived 2')"), DERIVED_WRITE);
    db.write((tx) => tx.run("INSERT INTO items (v) VALUES ('acknowledged')"));
    assert.equal(db.stats().journalSynced, true, 'the durable write synced the earlier one too');
    await db.close();
    const reopened = await open(file);
    assert.deepEqual(values(reopened), ['derived 1', 'derived 2', 'acknowledged']);
    await reopened.close();
  });

  it('are synced by close, and by a snapshot (the compacted journal is written whole)', async () => {
    const file = path.join(tempDir(), 'memory.db');
    const db = await open(file);
    db.write((tx) => tx.run("INSERT INTO items (v) VALUES ('before snapshot')"), DERIVED_WRITE);
    await db.snapshot();
    db.write((tx) => tx.run("INSERT INTO items (v) VALUES ('after snapshot')"), DERIVED_WRITE);
    await db.close();
    const reopened = await open(file);
    assert.deepEqual(values(reopened), ['before snapshot', 'after snapshot']);
    await reopened.close();
  });

  it('survive the process being killed with SIGKILL right after the write', async () => {
    const file = path.join(tempDir(), 'memory.db');
    const writer = path.join(__dirname, '..', 'fixtures', 'derivedWriter.ts');
    const child = spawn(process.execPath, [bundledFixture(writer), file, '50'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    const exited = once(child, 'exit');
    await new Promise<void>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        // Killed at once after the last acknowledgement: no background sync need have run.
        if (out.includes('ack 49\n')) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('exit', () => reject(new Error(`writer exited early: ${err}`)));
    });
    await exited;
    const db = await open(file);
    assert.equal(values(db).length, 50);
    assert.equal(values(db)[49], 'derived 49');
    await db.close();
  });
});
