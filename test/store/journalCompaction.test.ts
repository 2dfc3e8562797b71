import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { silentLogger } from '../../engine/host';
import { Journal } from '../../engine/store/journal';
import { THREAD_COPY_BYTES } from '../../engine/store/journalCompaction';
import type { TransactionRecord } from '../../engine/store/statementLog';
import { tempDir } from '../support/temp';

const DB_ID = 'c0ffee'.padEnd(32, '0');

/** A transaction of about 20 KB: 200 of them make a tail the copy needs several parts for. */
function record(seq: number): TransactionRecord {
  return {
    seq,
    at: 1_700_000_000_000 + seq,
    statements: [['INSERT INTO items (v) VALUES (?)', [`${seq} ${'x'.repeat(20_000)}`]]],
  };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('journal compaction', () => {
  it('copies the kept records in the thread pool while appends go on, and only the rest on the thread', async () => {
    const file = path.join(tempDir(), 'memory.db.journal');
    const journal = Journal.create(file, DB_ID);
    for (let seq = 1; seq <= 300; seq++) journal.append(record(seq), false);
    await journal.flush();
    const before = journal.byteSize;

    let done = false;
    const compaction = journal.compact(100).finally(() => (done = true));
    // Writes keep coming, one per turn of the event loop, until the compaction is over.
    let seq = 300;
    let appendedWhileCompacting = 0;
    while (!done) {
      journal.append(record(++seq));
      appendedWhileCompacting++;
      await nextTurn();
    }
    await compaction;

    assert.ok(appendedWhileCompacting >= 2, `${appendedWhileCompacting} appends while it compacted`);
    const keptBytes = journal.byteSize;
    assert.ok(keptBytes < before, 'the records up to 100 were dropped');
    assert.ok(
      journal.compactedOnThread <= THREAD_COPY_BYTES && journal.compactedOnThread < keptBytes / 10,
      `${journal.compactedOnThread} of ${keptBytes} kept bytes copied on the thread`,
    );
    assert.ok(!existsSync(`${file}.tmp`), 'the new file was renamed over the journal');

    // The live journal goes on, and a reopen reads exactly the records after 100, in order.
    journal.append(record(++seq));
    assert.deepEqual(journal.rangeAfter(100).lastSeq, seq);
    journal.close();
    const reopened = Journal.open(file, DB_ID, silentLogger, 100);
    assert.deepEqual(
      reopened.records,
      Array.from({ length: seq - 100 }, (_, i) => record(101 + i)),
    );
    reopened.journal.close();
  });

  it('a closed journal abandons its compaction and leaves the old file whole', async () => {
    const file = path.join(tempDir(), 'memory.db.journal');
    const journal = Journal.create(file, DB_ID);
    for (let seq = 1; seq <= 200; seq++) journal.append(record(seq), false);
    // Closed while the first part is copied (DurableDatabase never does this: close waits for it).
    const compaction = journal.compact(50, (step) => {
      if (step === 'copying') journal.close();
    });
    await assert.rejects(compaction, /closed during its compaction/);
    assert.ok(!existsSync(`${file}.tmp`), 'the partial copy was removed');
    const reopened = Journal.open(file, DB_ID, silentLogger, 0);
    assert.equal(reopened.records.length, 200);
    reopened.journal.close();
  });
});
