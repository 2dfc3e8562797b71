import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import initSqlJs from 'sql.js';
import { readFileSync } from 'node:fs';
import { insertRows } from '../../engine/store/heldRows';
import { scanJournal } from '../../engine/store/journalScan';
import { storeFiles } from '../../engine/store/storeFiles';
import type { SqlWriter } from '../../engine/store/sqlAccess';
import type { SqlParams } from '../../engine/store/statementLog';
import { openTestHost } from '../support/host';
import { rememberFailingAt } from '../support/failingBatch';
import { written } from '../support/written';
import type { TestHost } from '../support/host';
import { SQL_WASM_PATH } from '../support/temp';

// A new memory's counters, document number, lexical row and ledger event are held back and
// written a few statements per table when the remember call ends. These pin that every path of a
// batch still sees what it must, and that a replay of the journal writes the same rows.

async function host(options: Parameters<typeof openTestHost>[0] = {}): Promise<TestHost> {
  const test = await openTestHost(options);
  after(() => test.host.close());
  return test;
}

function rows(test: TestHost, sql: string): unknown[] {
  return test.host.store.read((r) => r.all(sql));
}

const DOCS = 'SELECT doc, memory_id FROM memory_docs ORDER BY doc';
const LEXICAL = 'SELECT docid, content, tags FROM memory_fts ORDER BY docid';
const STATE = 'SELECT id, pinned, confirmations FROM memory_state ORDER BY id';
const EVENTS = 'SELECT type, memory_id FROM events ORDER BY seq';

describe('insertRows', () => {
  it('writes every row in order with power-of-two chunks, so few distinct statements are prepared', async () => {
    const SQL = await initSqlJs({ locateFile: () => SQL_WASM_PATH });
    const db = new SQL.Database();
    db.run('CREATE TABLE t (a INTEGER, b TEXT)');
    const texts = new Set<string>();
    let statements = 0;
    const tx: SqlWriter = {
      all: () => [],
      get: () => undefined,
      value: () => undefined,
      run: (sql: string, params?: SqlParams) => {
        texts.add(sql);
        statements++;
        db.run(sql, params);
        return db.getRowsModified();
      },
    };
    let expected = 0;
    for (const size of [1, 3, 1000, 257, 999, 5, 0, 64]) {
      statements = 0;
      const batch = Array.from({ length: size }, (_, i) => [expected + i, `row ${expected + i}`]);
      insertRows(tx, 'INSERT INTO t (a, b)', batch);
      expected += size;
      // 1000 rows: 256 x 3, then 128 + 64 + 32 + 8.
      if (size === 1000) assert.equal(statements, 7);
    }
    const stored = db.exec('SELECT a, b FROM t ORDER BY rowid')[0]!.values;
    assert.equal(stored.length, expected);
    stored.forEach(([a, b], i) => {
      assert.equal(a, i);
      assert.equal(b, `row ${i}`);
    });
    // Chunks are 256, 128, ..., 1 rows: at most nine texts whatever the batch sizes.
    assert.ok(texts.size <= 9, `${texts.size} distinct statements`);
    db.close();
  });
});

describe('rows of new memories in a batch', () => {
  it('gives each memory one document with its lexical row, state and event, and recall finds each', async () => {
    const test = await host();
    const contents = Array.from(
      { length: 300 },
      (_, i) => `deploy note ${i}: the zeta${i} service runs on port ${4000 + i}`,
    );
    const results = written(
      await test.call('rememberMany', {
        memories: contents.map((content, i) => ({ content, pinned: i % 7 === 0 })),
      }),
    );
    const docs = rows(test, DOCS) as Array<{ doc: number; memory_id: string }>;
    assert.deepEqual(
      docs.map((d) => d.memory_id),
      results.map((r) => r.memory.id),
    );
    assert.deepEqual(
      docs.map((d) => d.doc),
      docs.map((_, i) => i + 1),
    );
    const lexical = rows(test, LEXICAL) as Array<{ docid: number; content: string }>;
    assert.deepEqual(
      lexical.map((l) => l.docid),
      docs.map((d) => d.doc),
    );
    assert.match(lexical[42]!.content, /zeta42/);
    const state = rows(test, STATE) as Array<{ id: string; pinned: number }>;
    assert.equal(state.length, 300);
    const pinned = new Set(results.filter((_, i) => i % 7 === 0).map((r) => r.memory.id));
    for (const s of state) assert.equal(s.pinned === 1, pinned.has(s.id));
    const events = rows(test, EVENTS) as Array<{ type: string; memory_id: string }>;
    assert.deepEqual(
      events.filter((e) => e.type === 'remember').map((e) => e.memory_id),
      results.map((r) => r.memory.id),
    );
    const found = await test.call('recall', { query: 'zeta217 service port' });
    assert.equal(found.hits[0]?.memory.id, results[217]!.memory.id);
    // A later batch continues the numbering.
    await test.call('rememberMany', { memories: [{ content: 'one more after the batch' }] });
    assert.equal((rows(test, DOCS).at(-1) as { doc: number }).doc, 301);
  });

  it('inserts the version rows of a batch a few statements at a time, in the order of the batch', async () => {
    const test = await host();
    await test.call('remember', { content: 'stored before the batch' });
    const contents = Array.from(
      { length: 300 },
      (_, i) => `release note ${i}: the omega${i} job runs nightly`,
    );
    // Two that meet stored memories (the one above, one earlier in the batch) take the full path.
    contents.splice(100, 0, 'stored before the batch');
    contents.splice(200, 0, contents[150]!);
    const results = written(
      await test.call('rememberMany', { memories: contents.map((content) => ({ content })) }),
    );
    assert.equal(results[100]!.outcome, 'unchanged');
    assert.equal(results[200]!.outcome, 'unchanged');
    assert.equal(results[200]!.memory.id, results[150]!.memory.id);
    const frames = scanJournal(readFileSync(storeFiles(test.dbPath).journal)).frames;
    const inserts = frames
      .at(-1)!
      .record.statements.filter(([sql]) => sql.startsWith('INSERT INTO memories ('))
      .map(([, params]) => (params as unknown[]).length / 24);
    // 300 rows of 24 columns: chunks of at most 32 (999 parameters), split where the two
    // duplicates needed the rows before them stored. One statement per row before.
    assert.equal(
      inserts.reduce((sum, rows) => sum + rows, 0),
      300,
    );
    assert.ok(inserts.length <= 16, `${inserts.length} statements for 300 version rows`);
    const order = rows(test, 'SELECT id FROM memories ORDER BY rowid') as Array<{ id: string }>;
    assert.deepEqual(
      order.slice(1).map((r) => r.id),
      results.filter((r) => r.outcome === 'added').map((r) => r.memory.id),
    );
  });

  it('sees a memory created earlier in the same batch: a duplicate confirms it, a conflict key supersedes it', async () => {
    const test = await host();
    const results = written(
      await test.call('rememberMany', {
        memories: [
          { content: 'the api listens on port 8080', conflictKey: 'api-port', pinned: true },
          { content: 'builds run with pnpm' },
          { content: 'builds run with pnpm' },
          { content: 'the api listens on port 9090', conflictKey: 'api-port' },
        ],
      }),
    );
    assert.deepEqual(
      results.map((r) => r.outcome),
      ['added', 'added', 'unchanged', 'superseded'],
    );
    assert.equal(results[2]!.memory.id, results[1]!.memory.id);
    assert.equal(results[2]!.memory.confirmations, 2);
    assert.deepEqual(results[3]!.superseded, [results[0]!.memory.id]);
    const { memory: first } = await test.call('get', { id: results[0]!.memory.id });
    assert.equal(first.status, 'superseded');
    assert.equal(first.pinned, true);
    const docs = rows(test, DOCS) as Array<{ memory_id: string }>;
    assert.equal(docs.length, 3);
    assert.equal(new Set(docs.map((d) => d.memory_id)).size, 3);
  });

  it('leaves nothing behind when a batch fails part-way', async () => {
    const test = await host();
    await test.call('remember', { content: 'kept from before' });
    const before = [DOCS, LEXICAL, STATE, EVENTS].map((sql) => rows(test, sql));
    // Every input is valid; the third fails inside the write, after two memories' rows were held.
    assert.throws(
      () =>
        rememberFailingAt(
          test.host.store,
          [
            { content: 'first of a failing batch' },
            { content: 'second of a failing batch', layer: 'working', session: 's' },
            { content: 'third of a failing batch' },
            { content: 'fourth' },
          ],
          2,
        ),
      /no memory with id "m_gone"/,
    );
    assert.deepEqual(
      [DOCS, LEXICAL, STATE, EVENTS].map((sql) => rows(test, sql)),
      before,
    );
    // The next batch writes its own rows and nothing of the failed one.
    const next = written(await test.call('rememberMany', { memories: [{ content: 'after the failure' }] }));
    const docs = rows(test, DOCS) as Array<{ doc: number; memory_id: string }>;
    assert.equal(docs.length, 2);
    assert.equal(docs[1]!.memory_id, next[0]!.memory.id);
    assert.equal(rows(test, STATE).length, 2);
    assert.equal(rows(test, LEXICAL).length, 2);
  });

  it('replays from the journal into the same documents, lexical rows, state and events', async () => {
    const first = await openTestHost();
    await first.call('rememberMany', {
      memories: Array.from({ length: 40 }, (_, i) => ({
        content: `replayed fact number ${i} about kappa${i}`,
        pinned: i === 3,
      })),
    });
    await first.call('remember', { content: 'replayed fact number 7 about kappa7' });
    const written = [DOCS, LEXICAL, STATE, EVENTS].map((sql) => rows(first, sql));
    await first.host.close();
    const reopened = await host({ dbPath: first.dbPath });
    assert.equal(reopened.host.store.db.stats().snapshotSeq < reopened.host.store.db.stats().seq, true);
    assert.deepEqual(
      [DOCS, LEXICAL, STATE, EVENTS].map((sql) => rows(reopened, sql)),
      written,
    );
  });
});
