import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { closeJournalThreshold } from '../../engine/store/closeSnapshot';
import { decodedRecordCount } from '../../engine/store/statementLog';
import type { Migration } from '../../engine/store/migrate';
import { engram } from '../cli/engramCli';
import { openDurable } from '../support/durable';
import { tempDir } from '../support/temp';

const migrations: Migration[] = [
  { version: 1, name: 'items', up: (tx) => tx.run('CREATE TABLE items (id INTEGER PRIMARY KEY, v TEXT)') },
];

/** What the CLI asks for: a threshold from the snapshot's size. */
const BY_SIZE = { snapshot: { idleMs: 60_000, closeJournalBytes: 'by-size' as const } };

/** Journal records the next open has to replay (decoded beyond its snapshot). */
async function replayedOnOpen(file: string): Promise<number> {
  const before = decodedRecordCount();
  const db = await openDurable(file, migrations, BY_SIZE);
  const replayed = decodedRecordCount() - before;
  await db.close();
  return replayed;
}

describe('snapshot on close', () => {
  it('grows with the square root of the snapshot, between 32 KiB and 1 MiB', () => {
    assert.equal(closeJournalThreshold(0), 32 * 1024);
    assert.equal(closeJournalThreshold(1024 * 1024), 32 * 1024);
    // 14 MB (10k memories): ~11 KiB balanced, so the floor; 140 MB: ~35 KiB; 1 GB: ~93 KiB.
    assert.equal(closeJournalThreshold(140e6), Math.round(3 * Math.sqrt(140e6)));
    assert.equal(closeJournalThreshold(1e12), 1024 * 1024);
  });

  it('what the next open replays stays near the threshold; a few small writes stay in the journal', async () => {
    const file = path.join(tempDir(), 'memory.db');
    const small = await openDurable(file, migrations, BY_SIZE);
    for (let i = 0; i < 5; i++) small.write((tx) => tx.run('INSERT INTO items (v) VALUES (?)', [`v${i}`]));
    await small.close();
    // The migration's record and the five writes.
    assert.equal(await replayedOnOpen(file), 6, 'a few small writes stay in the journal');

    // One-shot commands in a row, each opening (replaying) and adding a ~1 KiB record: what an open
    // replays stays near the 32 KiB threshold (under 1 MiB it used to grow to), and closes between
    // snapshots leave the journal alone.
    const replayed: number[] = [];
    for (let run = 0; run < 80; run++) {
      const before = decodedRecordCount();
      const db = await openDurable(file, migrations, BY_SIZE);
      replayed.push(decodedRecordCount() - before);
      db.write((tx) => tx.run('INSERT INTO items (v) VALUES (?)', ['x'.repeat(1000)]));
      await db.close();
    }
    assert.ok(Math.max(...replayed) <= 40, `an open replayed ${Math.max(...replayed)} records`);
    assert.ok(replayed.filter((n) => n > 20).length > 10, `replays ${replayed.join(' ')}`);
  });

  it('the CLI snapshots on close once its commands left 32 KiB to replay; a long-lived host keeps 1 MiB', async () => {
    const dir = tempDir();
    const file = path.join(dir, '.engram', 'memory.db');
    const snapshotTime = () => statSync(file).mtimeMs;
    assert.equal((await engram(dir, ['remember', 'The deploy job retries three times'])).code, 0);
    const first = snapshotTime();
    let runs = 0;
    for (; runs < 60 && snapshotTime() === first; runs++) {
      const note = `Note ${runs}: the deploy job for service s${runs} pages the on-call engineer after ${runs} minutes.`;
      const remembered = await engram(dir, ['remember', note, '--tags', `ops,s${runs}`]);
      assert.equal(remembered.code, 0, remembered.err);
    }
    assert.ok(snapshotTime() !== first, 'no snapshot after 60 commands');
    assert.ok(runs > 3, `a snapshot after ${runs} commands`);

    // The same writes through a host with the default policy leave them all in the journal.
    const hostFile = path.join(tempDir(), 'memory.db');
    const host = await openDurable(hostFile, migrations);
    for (let i = 0; i < 60; i++)
      host.write((tx) => tx.run('INSERT INTO items (v) VALUES (?)', ['x'.repeat(1000)]));
    const before = statSync(hostFile).mtimeMs;
    await host.close();
    assert.equal(statSync(hostFile).mtimeMs, before);
  });
});
