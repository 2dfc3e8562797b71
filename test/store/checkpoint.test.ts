import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { EngramError } from '../../engine/errors';
import { runCheckpoint } from '../../engine/store/checkpoint';
import { sourceWorkerScripts } from '../../engine/process/workerScripts';
import type { DurableDatabase } from '../../engine/store/durableDatabase';
import { JOURNAL_HEADER_BYTES } from '../../engine/store/journalScan';
import type { DurableDatabaseOptions } from '../../engine/store/durableDatabase';
import type { Migration } from '../../engine/store/migrate';
import { loadSqlJs } from '../../engine/store/sqlite';
import { openDurable } from '../support/durable';
import { SQL_WASM_PATH, tempDir } from '../support/temp';

const migrations: Migration[] = [
  { version: 1, name: 'items', up: (tx) => tx.run('CREATE TABLE items (id INTEGER PRIMARY KEY, v TEXT)') },
];

function open(file: string, extra: Partial<DurableDatabaseOptions> = {}): Promise<DurableDatabase> {
  return openDurable(file, migrations, {
    snapshot: { idleMs: 600_000 },
    // Every size goes to the worker here; the threshold has its own test below.
    checkpointWorker: { sqlWasmPath: SQL_WASM_PATH, minDatabaseBytes: 0 },
    ...extra,
  });
}

const insert = (db: DurableDatabase, v: string) =>
  db.write((tx) => tx.run('INSERT INTO items (v) VALUES (?)', [v]));

/** What the snapshot file alone holds: its rows and the journal seq it was written at. */
async function snapshotFile(file: string): Promise<{ values: string[]; seq: number }> {
  const SQL = await loadSqlJs(SQL_WASM_PATH);
  const db = new SQL.Database(readFileSync(file));
  try {
    const values = (db.exec('SELECT v FROM items ORDER BY id')[0]?.values ?? []).map((r) => String(r[0]));
    const seq = Number(db.exec("SELECT value FROM engram_meta WHERE key = 'journal_seq'")[0]?.values[0]?.[0]);
    return { values, seq };
  } finally {
    db.close();
  }
}

describe('snapshots written by the checkpoint worker', () => {
  it('hold every write up to the checkpoint, and the journal is compacted as with an export', async () => {
    const file = path.join(tempDir(), 'memory.db');
    const db = await open(file);
    for (let i = 0; i < 30; i++) insert(db, `row ${i}`);
    await db.snapshot();
    const first = db.stats();
    assert.equal(first.snapshotSeq, first.seq);
    assert.deepEqual(await snapshotFile(file), {
      values: Array.from({ length: 30 }, (_, i) => `row ${i}`),
      seq: first.seq,
    });
    for (let i = 30; i < 40; i++) insert(db, `row ${i}`);
    await db.snapshot();
    // Records before the previous snapshot are dropped; those after it stay (with .prev they rebuild).
    assert.equal(db.stats().journalRecords, 10);
    assert.equal((await snapshotFile(file)).values.length, 40);
    await db.close();
    const reopened = await open(file);
    assert.equal(
      reopened.read((r) => r.value<number>('SELECT count(*) FROM items')),
      40,
    );
    await reopened.close();
  });

  it('keep the writes made while the worker runs, which land after its snapshot', async () => {
    const file = path.join(tempDir(), 'memory.db');
    const db = await open(file);
    for (let i = 0; i < 20; i++) insert(db, `before ${i}`);
    const atCheckpoint = db.stats().seq;
    const snapshot = db.snapshot();
    for (let i = 0; i < 20; i++) insert(db, `during ${i}`);
    await snapshot;
    assert.equal(db.stats().snapshotSeq, atCheckpoint);
    const written = await snapshotFile(file);
    assert.equal(written.seq, atCheckpoint);
    assert.equal(written.values.length, 20, 'the snapshot is the state at the checkpoint');
    insert(db, 'after');
    // No close: as after a crash, the snapshot plus the journal must give everything back.
    const reopened = await open(file);
    assert.equal(
      reopened.read((r) => r.value<number>('SELECT count(*) FROM items')),
      41,
    );
    await reopened.close();
    await db.close();
  });

  it('lose nothing when the worker fails: the snapshot stays as it was and the journal keeps all', async () => {
    const file = path.join(tempDir(), 'memory.db');
    const db = await open(file, {
      checkpointWorker: { sqlWasmPath: path.join(tempDir(), 'no-such-sql-wasm.wasm'), minDatabaseBytes: 0 },
    });
    for (let i = 0; i < 5; i++) insert(db, `row ${i}`);
    await assert.rejects(db.snapshot(), /checkpoint failed/);
    assert.equal(db.stats().snapshotSeq, 0);
    insert(db, 'still writable');
    const reopened = await open(file);
    assert.equal(
      reopened.read((r) => r.value<number>('SELECT count(*) FROM items')),
      6,
    );
    await reopened.close();
    await db.close().catch(() => undefined);
  });
});

describe('the checkpoint worker size threshold', () => {
  // A worker whose script does not exist fails any checkpoint it is given: a snapshot that
  // succeeds with it was exported on the host's thread.
  const missingWorker = (minDatabaseBytes: number) => ({
    checkpointWorker: {
      sqlWasmPath: SQL_WASM_PATH,
      script: { file: path.join(tempDir(), 'no-such-worker.js') },
      minDatabaseBytes,
    },
  });

  it('exports a database below it on the host thread, with every write in the snapshot', async () => {
    const file = path.join(tempDir(), 'memory.db');
    const db = await open(file, missingWorker(1024 * 1024));
    for (let i = 0; i < 10; i++) insert(db, `row ${i}`);
    await db.snapshot();
    assert.equal(db.stats().snapshotSeq, db.stats().seq);
    assert.equal((await snapshotFile(file)).values.length, 10);
    await db.close();
  });

  it('hands a database at or above it to the worker', async () => {
    const file = path.join(tempDir(), 'memory.db');
    const db = await open(file, missingWorker(4096));
    insert(db, 'x'.repeat(10_000));
    await assert.rejects(db.snapshot());
    assert.equal(db.stats().snapshotSeq, 0);
    await db.close().catch(() => undefined);
  });
});

describe('the checkpoint worker memory', () => {
  it('replays 10,000 transactions within a small young generation (at most 30 MB of heap at the end)', async () => {
    const file = path.join(tempDir(), 'memory.db');
    const db = await open(file);
    // 10,000 small transactions: replaying their records is what filled the worker's heap.
    const text = 'a journal row of some length '.repeat(18);
    for (let i = 0; i < 10_000; i++) insert(db, `${i} ${text}`);
    const { seq, snapshotSeq, journalBytes } = db.stats();
    assert.ok(journalBytes > 5 * 1024 * 1024, `journal ${journalBytes} bytes`);
    const reply = await runCheckpoint(sourceWorkerScripts().checkpoint, {
      sqlWasmPath: SQL_WASM_PATH,
      databasePath: file,
      journalPath: `${file}.journal`,
      from: JOURNAL_HEADER_BYTES,
      to: journalBytes,
      fromSeq: snapshotSeq,
      toSeq: seq,
      tempPath: path.join(tempDir(), 'checkpoint.tmp'),
    });
    await db.close();
    assert.ok(reply.ok, JSON.stringify(reply));
    // V8's default young generation left the worker's heap at ~50 MB, and the host process kept much of
    // that in RSS after the worker ended (48 MB here); with CHECKPOINT_YOUNG_GENERATION_MB, ~20 MB.
    assert.ok(reply.heapMb <= 30, `worker heap ${reply.heapMb} MB`);
  });
});

describe('a checkpoint worker that breaks the protocol', () => {
  it('fails the checkpoint with a one-line STORE error instead of throwing on the host thread', async () => {
    const job = {
      sqlWasmPath: SQL_WASM_PATH,
      databasePath: 'unused',
      journalPath: 'unused',
      from: 0,
      to: 0,
      fromSeq: 0,
      toSeq: 0,
      tempPath: 'unused',
    };
    const script = {
      file: path.join(__dirname, 'fixtures', 'nullReplyWorker.ts'),
      execArgv: ['--require', 'tsx/cjs'],
    };
    await assert.rejects(runCheckpoint(script, job), (error: unknown) => {
      assert.ok(EngramError.is(error, 'STORE'), String(error));
      assert.equal(error.message, 'checkpoint worker sent an unexpected message');
      return true;
    });
  });
});
