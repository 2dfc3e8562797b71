import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { EngramError } from '../../engine/errors';
import type { Logger } from '../../engine/host';
import { DurableDatabase } from '../../engine/store/durableDatabase';
import type { Migration } from '../../engine/store/migrate';
import { loadSqlJs } from '../../engine/store/sqlite';
import { openDurable } from '../support/durable';
import { openTestHost } from '../support/host';
import { SQL_WASM_PATH, tempDir } from '../support/temp';

// Damaged files must never cost intact acknowledged writes: each row damages one file of a real
// database in a known way and states what must come out of it. "Kept" means every acknowledged
// write is readable after open (or after `recover`); anything lost leaves a copy and a loud report.

const migrations: Migration[] = [
  { version: 1, name: 'items', up: (tx) => tx.run('CREATE TABLE items (id INTEGER PRIMARY KEY, v TEXT)') },
];

interface Logged {
  level: 'warn' | 'error';
  message: string;
  data: Record<string, unknown> | undefined;
}

function capturingLogger(): { logger: Logger; logged: Logged[] } {
  const logged: Logged[] = [];
  const logger: Logger = {
    debug() {},
    info() {},
    warn: (message, data) => logged.push({ level: 'warn', message, data }),
    error: (message, data) => logged.push({ level: 'error', message, data }),
  };
  return { logger, logged };
}

function open(file: string, logger?: Logger): Promise<DurableDatabase> {
  return openDurable(file, migrations, logger ? { logger } : {});
}

const values = (db: DurableDatabase) =>
  db.read((r) => r.all<{ v: string }>('SELECT v FROM items ORDER BY id')).map((row) => row.v);

/** A database with `count` acknowledged writes w0..w(count-1); `snapshotAfter` writes are snapshotted. */
async function written(count: number, snapshotAfter?: number): Promise<{ dir: string; file: string }> {
  const dir = tempDir();
  const file = path.join(dir, 'memory.db');
  const db = await open(file);
  for (let i = 0; i < count; i++) {
    db.write((tx) => tx.run('INSERT INTO items (v) VALUES (?)', [`w${i}`]));
    if (i + 1 === snapshotAfter) await db.snapshot();
  }
  await db.close();
  return { dir, file };
}

const expected = (count: number) => Array.from({ length: count }, (_, i) => `w${i}`);

/** The byte offsets of the journal's frames, read independently of the engine: header 40 bytes, then [len][crc][payload]. */
function frameOffsets(journal: string): number[] {
  const bytes = readFileSync(journal);
  const offsets: number[] = [];
  for (let offset = 40; offset + 8 <= bytes.length; offset += 8 + bytes.readUInt32LE(offset))
    offsets.push(offset);
  return offsets;
}

/** The offset of the frame holding transaction `seq` (frame payloads are JSON starting {"seq":N,). */
function frameOf(journal: string, seq: number): number {
  const bytes = readFileSync(journal);
  const offset = frameOffsets(journal).find((o) =>
    bytes
      .subarray(o + 8, o + 40)
      .toString('latin1')
      .startsWith(`{"seq":${seq},`),
  );
  assert.ok(offset !== undefined, `no frame for transaction ${seq}`);
  return offset;
}

function flip(file: string, at: number, mask: number): void {
  const bytes = readFileSync(file);
  bytes[at] = bytes[at]! ^ mask;
  writeFileSync(file, bytes);
}

const damagedCopies = (dir: string) =>
  readdirSync(dir).filter((n) => n.startsWith('memory.db.journal.damaged-'));

/** The copy named in an error log line is a real file holding the damaged journal. */
function assertReportedCopy(dir: string, logged: Logged[], damaged: Buffer): void {
  const copies = damagedCopies(dir);
  assert.equal(copies.length, 1, `copies: ${copies.join(', ')}`);
  const copy = path.join(dir, copies[0]!);
  assert.deepEqual(readFileSync(copy), damaged);
  const report = logged.find((l) => l.level === 'error' && JSON.stringify(l).includes(copy));
  assert.ok(report, `no error names the copy ${copy}: ${JSON.stringify(logged)}`);
}

// Transaction 1 is the migration; write wN is transaction N + 2.
const seqOfWrite = (n: number) => n + 2;

describe('damaged files keep every intact acknowledged write', () => {
  it('a flipped high bit in a middle record length: all 20 kept, a copy kept and reported', async () => {
    const { dir, file } = await written(20);
    const journal = `${file}.journal`;
    flip(journal, frameOf(journal, seqOfWrite(11)) + 3, 0x40); // record 12 claims ~1 GiB
    const damaged = readFileSync(journal);
    const { logger, logged } = capturingLogger();
    const db = await open(file, logger);
    assert.deepEqual(values(db), expected(20));
    assertReportedCopy(dir, logged, damaged);
    assert.ok(!logged.some((l) => /torn/.test(l.message)), 'called a torn tail');
    await db.close();
  });

  it('a length field one too short in a middle record: all kept, a copy kept and reported', async () => {
    const { dir, file } = await written(20);
    const journal = `${file}.journal`;
    const at = frameOf(journal, seqOfWrite(5));
    const bytes = readFileSync(journal);
    bytes.writeUInt32LE(bytes.readUInt32LE(at) - 1, at);
    writeFileSync(journal, bytes);
    const { logger, logged } = capturingLogger();
    const db = await open(file, logger);
    assert.deepEqual(values(db), expected(20));
    assertReportedCopy(dir, logged, bytes);
    await db.close();
  });

  it('a flipped payload byte in a record the snapshot holds: the 10 after it are replayed', async () => {
    const { dir, file } = await written(20, 10);
    const journal = `${file}.journal`;
    flip(journal, frameOf(journal, seqOfWrite(2)) + 20, 0x01);
    const damaged = readFileSync(journal);
    const { logger, logged } = capturingLogger();
    const db = await open(file, logger);
    assert.deepEqual(values(db), expected(20));
    assertReportedCopy(dir, logged, damaged);
    // Sequence numbers are never reused: the next write comes after the last one ever written.
    const last = db.lastSeq;
    assert.equal(last, seqOfWrite(19));
    db.write((tx) => tx.run('INSERT INTO items (v) VALUES (?)', ['w20']));
    await db.close();
    const again = await open(file);
    assert.deepEqual(values(again), expected(21));
    await again.close();
  });

  it('a flipped checksum byte in a record header the snapshot holds: all kept', async () => {
    const { dir, file } = await written(20, 10);
    const journal = `${file}.journal`;
    flip(journal, frameOf(journal, seqOfWrite(4)) + 5, 0x80);
    const damaged = readFileSync(journal);
    const { logger, logged } = capturingLogger();
    const db = await open(file, logger);
    assert.deepEqual(values(db), expected(20));
    assertReportedCopy(dir, logged, damaged);
    await db.close();
  });

  it('a flipped bit in the last record: it is cut, but a copy is kept and reported', async () => {
    const { dir, file } = await written(20);
    const journal = `${file}.journal`;
    flip(journal, frameOf(journal, seqOfWrite(19)) + 20, 0x01);
    const damaged = readFileSync(journal);
    const { logger, logged } = capturingLogger();
    const db = await open(file, logger);
    assert.deepEqual(values(db), expected(19));
    assertReportedCopy(dir, logged, damaged);
    await db.close();
  });

  it('a flipped high bit in the last record length: the intact record is kept, and a copy', async () => {
    const { dir, file } = await written(20);
    const journal = `${file}.journal`;
    flip(journal, frameOf(journal, seqOfWrite(19)) + 3, 0x10);
    const damaged = readFileSync(journal);
    const { logger, logged } = capturingLogger();
    const db = await open(file, logger);
    assert.deepEqual(values(db), expected(20));
    assertReportedCopy(dir, logged, damaged);
    await db.close();
  });

  it('a truncation inside the last record (a torn append): it is cut with a warning', async () => {
    const { dir, file } = await written(20);
    const journal = `${file}.journal`;
    truncateSync(journal, frameOf(journal, seqOfWrite(19)) + 30);
    const { logger, logged } = capturingLogger();
    const db = await open(file, logger);
    assert.deepEqual(values(db), expected(19));
    assert.ok(logged.some((l) => l.level === 'warn' && /torn/.test(l.message)));
    assert.deepEqual(damagedCopies(dir), []);
    await db.close();
  });

  it('a flipped byte in a record the snapshot lacks, with records after it: open refuses, recover salvages', async () => {
    const { dir, file } = await written(20, 10);
    const journal = `${file}.journal`;
    flip(journal, frameOf(journal, seqOfWrite(14)) + 20, 0x01);
    const damaged = readFileSync(journal);
    await assert.rejects(open(file), (error: unknown) => {
      assert.ok(EngramError.is(error, 'CORRUPT'), String(error));
      assert.match(error.message, /memory\.db\.journal/);
      assert.match(error.message, /engram recover/);
      return true;
    });
    assert.deepEqual(readFileSync(journal), damaged, 'open changed the journal');
    const sql = await loadSqlJs(SQL_WASM_PATH);
    // Recovering would lose transaction 16: refused unless the loss is accepted, nothing changed.
    await assert.rejects(DurableDatabase.recover({ path: file, sql }), (error: unknown) => {
      assert.ok(EngramError.is(error, 'CORRUPT'), String(error));
      assert.match(error.message, /accept-loss/);
      return true;
    });
    assert.deepEqual(readFileSync(journal), damaged, 'a refused recover changed the journal');
    const report = await DurableDatabase.recover({ path: file, sql, acceptLoss: true });
    assert.deepEqual(report.lost, [seqOfWrite(14)]);
    const db = await open(file);
    assert.deepEqual(
      values(db),
      expected(20).filter((v) => v !== 'w14'),
    );
    assert.equal(db.lastSeq, seqOfWrite(19));
    await db.close();
    assert.ok(report.keptAside.some((p) => existsSync(p) && readFileSync(p).equals(damaged)));
    assert.equal(damagedCopies(dir).length, 0);
  });

  it('a flipped bit in the journal header magic: open fails naming it, recover keeps all 20', async () => {
    const { file } = await written(20);
    const journal = `${file}.journal`;
    flip(journal, 2, 0x04);
    await assert.rejects(open(file), (error: unknown) => {
      assert.ok(EngramError.is(error, 'CORRUPT'), String(error));
      assert.match(error.message, /memory\.db\.journal/);
      return true;
    });
    const report = await DurableDatabase.recover({ path: file, sql: await loadSqlJs(SQL_WASM_PATH) });
    assert.deepEqual(report.lost, []);
    const db = await open(file);
    assert.deepEqual(values(db), expected(20));
    await db.close();
  });

  it('a deleted journal: open fails naming it', async () => {
    const { file } = await written(30);
    rmSync(`${file}.journal`);
    await assert.rejects(open(file), (error: unknown) => {
      assert.ok(EngramError.is(error, 'CORRUPT'), String(error));
      assert.match(error.message, /memory\.db\.journal/);
      return true;
    });
    assert.ok(!existsSync(`${file}.journal`), 'open created a new journal');
  });

  it('a damaged database without a previous snapshot: recover rebuilds it from the journal alone', async () => {
    const { file } = await written(30);
    assert.ok(!existsSync(`${file}.prev`));
    writeFileSync(file, Buffer.alloc(4096, 9));
    await assert.rejects(open(file), (error: unknown) => EngramError.is(error, 'CORRUPT'));
    const report = await DurableDatabase.recover({ path: file, sql: await loadSqlJs(SQL_WASM_PATH) });
    assert.deepEqual(report.lost, []);
    const db = await open(file);
    assert.deepEqual(values(db), expected(30));
    await db.close();
  });

  it('a deleted database without a previous snapshot: recover rebuilds it from the journal alone', async () => {
    const { file } = await written(30);
    rmSync(file);
    await DurableDatabase.recover({ path: file, sql: await loadSqlJs(SQL_WASM_PATH) });
    const db = await open(file);
    assert.deepEqual(values(db), expected(30));
    await db.close();
  });

  it('a damaged database and previous snapshot, journal compacted: recover refuses and changes nothing', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'memory.db');
    const db = await open(file);
    for (let i = 0; i < 30; i++) {
      db.write((tx) => tx.run('INSERT INTO items (v) VALUES (?)', [`w${i}`]));
      if (i % 10 === 9) await db.snapshot();
    }
    await db.close();
    writeFileSync(file, Buffer.alloc(4096, 9));
    writeFileSync(`${file}.prev`, Buffer.alloc(4096, 8));
    const before = readdirSync(dir)
      .sort()
      .map((name) => [name, readFileSync(path.join(dir, name))]);
    await assert.rejects(
      DurableDatabase.recover({ path: file, sql: await loadSqlJs(SQL_WASM_PATH) }),
      (error: unknown) => EngramError.is(error, 'CORRUPT') && /memory\.db\.prev/.test(error.message),
    );
    const after = readdirSync(dir)
      .sort()
      .map((name) => [name, readFileSync(path.join(dir, name))]);
    assert.deepEqual(after, before);
  });
});

const CLI = path.join(__dirname, '..', '..', 'dist', 'cli.js');

function engram(file: string, args: string[]) {
  const result = spawnSync(process.execPath, [CLI, '--db', file, '--embedding', 'off', ...args], {
    cwd: path.dirname(file),
    encoding: 'utf8',
    env: { ...process.env, ENGRAM_DB: '' },
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

function memoryCount(file: string): number {
  const stats = engram(file, ['--json', 'stats']);
  assert.equal(stats.code, 0, stats.err);
  return (JSON.parse(stats.out) as { memories: number }).memories;
}

/**
 * A database written the way the CLI writes one (one transaction per remember, no snapshot after
 * the empty one, so no `.prev`), through the real engine; `snapshotEvery` takes snapshots too.
 */
async function remembered(count: number, snapshotEvery?: number): Promise<{ dir: string; file: string }> {
  const dir = tempDir();
  const file = path.join(dir, 'memory.db');
  const t = await openTestHost({ dbPath: file });
  const topics = ['postgres', 'kubernetes', 'redis', 'terraform', 'graphql', 'kafka', 'nginx', 'vitest'];
  for (let i = 0; i < count; i++) {
    await t.call('remember', {
      content: `Decision ${i}: service-${i} uses ${topics[i % topics.length]} on port ${9000 + i}`,
    });
    if (snapshotEvery !== undefined && (i + 1) % snapshotEvery === 0) await t.host.store.db.snapshot();
  }
  await t.host.close();
  return { dir, file };
}

describe('damaged files through the CLI (dist/cli.js)', () => {
  it('a flipped high bit in record 12 length: 20 of 20 memories, the copy named on stderr', async () => {
    const { dir, file } = await remembered(20);
    assert.ok(!existsSync(`${file}.prev`));
    const journal = `${file}.journal`;
    flip(journal, frameOffsets(journal)[12]! + 3, 0x40);
    const stats = engram(file, ['--json', 'stats']);
    assert.equal(stats.code, 0, stats.err);
    assert.equal((JSON.parse(stats.out) as { memories: number }).memories, 20);
    const copies = damagedCopies(dir);
    assert.equal(copies.length, 1);
    assert.ok(stats.err.includes(path.join(dir, copies[0]!)), stats.err);
    assert.doesNotMatch(stats.err, /torn/);
  });

  it('a deleted journal: a store error that names it, no new journal', async () => {
    const { file } = await remembered(30);
    rmSync(`${file}.journal`);
    const stats = engram(file, ['stats']);
    assert.equal(stats.code, 3);
    assert.match(stats.err, /memory\.db\.journal is missing/);
    assert.ok(!existsSync(`${file}.journal`));
  });

  it('a damaged memory.db and no .prev: recover rebuilds every memory from the journal', async () => {
    const { file } = await remembered(30);
    writeFileSync(file, Buffer.alloc(8192, 7));
    const list = engram(file, ['list']);
    assert.equal(list.code, 3);
    assert.match(list.err, /engram recover/);
    const recovered = engram(file, ['recover']);
    assert.equal(recovered.code, 0, recovered.err);
    assert.match(recovered.out, /rebuilt .* from an empty database/);
    assert.equal(memoryCount(file), 30);
  });

  it('memory.db and .prev damaged, journal compacted: recover exits 3 and changes nothing', async () => {
    const { dir, file } = await remembered(25, 10);
    writeFileSync(file, Buffer.alloc(8192, 7));
    writeFileSync(`${file}.prev`, Buffer.alloc(8192, 6));
    const snapshot = () =>
      readdirSync(dir)
        .sort()
        .map((name) => [name, readFileSync(path.join(dir, name))]);
    const before = snapshot();
    const recovered = engram(file, ['recover']);
    assert.equal(recovered.code, 3, recovered.out);
    assert.match(recovered.err, /cannot rebuild .* without loss/);
    assert.doesNotMatch(recovered.out, /rebuilt/);
    assert.deepEqual(snapshot(), before);
  });

  it('a journal an older version cut, with its damaged copy: recover salvages the records only the copy has', async () => {
    const { dir, file } = await remembered(15, 10);
    const journal = `${file}.journal`;
    // What the old open left: the whole journal in a .damaged- copy, the journal cut at a record
    // the snapshot already held, so the writes after the snapshot were in the copy only.
    copyFileSync(journal, `${journal}.damaged-1700000000000`);
    const cut = frameOffsets(journal)[3];
    assert.ok(cut !== undefined);
    truncateSync(journal, cut);
    assert.equal(memoryCount(file), 10);
    const recovered = engram(file, ['recover']);
    assert.equal(recovered.code, 0, recovered.err);
    assert.match(recovered.out, /used the intact records of .*damaged-1700000000000/);
    assert.equal(memoryCount(file), 15);
    assert.ok(existsSync(path.join(dir, 'memory.db.journal.damaged-1700000000000')));
  });
});
