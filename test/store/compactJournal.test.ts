import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { KNOWN_STATEMENTS } from '../../engine/store/compactStatements';
import { encodeFrame, JOURNAL_HEADER_BYTES, scanJournal } from '../../engine/store/journalScan';
import { encodeRecord } from '../../engine/store/statementLog';
import type { TransactionRecord } from '../../engine/store/statementLog';
import { storeFiles } from '../../engine/store/storeFiles';
import type { SqlReader } from '../../engine/store/sqlAccess';
import { openTestHost } from '../support/host';

const CONTENTS = [
  'PaymentService publishes to KafkaBroker through src/queue/producer.ts on port 9092',
  'OrderService reads OrderEvents from KafkaBroker and writes to PostgresOrders',
  'The BillingWorker retries PaymentService calls three times with InvoiceQueue backoff',
  'AuthGateway signs tokens for OrderService and PaymentService with the SessionKeys',
];

/** Every row of every table, in a stable order. */
function allRows(r: SqlReader): Record<string, unknown[]> {
  const tables = r
    .all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .map((t) => t.name);
  return Object.fromEntries(tables.map((name) => [name, r.all(`SELECT * FROM "${name}" ORDER BY 1, 2`)]));
}

/** A record as the journal wrote it before compact records: every statement text in full. */
function verbatimPayload(record: TransactionRecord): Buffer {
  const sql: string[] = [];
  const ops = record.statements.map(([text, params]) => {
    let index = sql.indexOf(text);
    if (index === -1) index = sql.push(text) - 1;
    return params === undefined ? [index] : [index, params];
  });
  return Buffer.from(JSON.stringify({ seq: record.seq, at: record.at, sql, ops }), 'utf8');
}

describe('compact journal records', () => {
  it('a remember journals its statements by index and multi-row inserts by their one-row form', async () => {
    const t = await openTestHost();
    await Promise.all(CONTENTS.map((content) => t.call('remember', { content })));
    await t.call('remember', { content: CONTENTS.join('. ') });
    const bytes = readFileSync(storeFiles(t.dbPath).journal);
    await t.host.close();
    const text = bytes.toString('utf8');
    const statements = scanJournal(bytes).frames.flatMap((f) => f.record.statements.map(([sql]) => sql));
    // The texts were run (decoded in full) but not written out.
    assert.ok(statements.includes(KNOWN_STATEMENTS[0]!), 'a memory row was journaled');
    assert.ok(!text.includes('INSERT INTO memories ('), 'the memory insert is named by its index');
    const multiRow = statements.filter((sql) => sql.includes('?), (?'));
    assert.ok(multiRow.length > 0, 'some insert held several rows');
    assert.ok(!text.includes('?), (?'), 'no VALUES list of several rows is written out');
  });

  it('a journal of full-text records followed by compact ones replays to the same rows', async () => {
    const t = await openTestHost();
    for (const content of CONTENTS) await t.call('remember', { content });
    await Promise.all(CONTENTS.map((content) => t.call('remember', { content: `${content} again` })));
    const expected = t.host.store.read(allRows);
    await t.host.close();

    // As if an earlier version wrote the first half of the journal and this one the rest.
    const file = storeFiles(t.dbPath).journal;
    const bytes = readFileSync(file);
    const frames = scanJournal(bytes).frames;
    assert.ok(frames.length > 8, `${frames.length} records`);
    const half = Math.floor(frames.length / 2);
    writeFileSync(
      file,
      Buffer.concat([
        bytes.subarray(0, JOURNAL_HEADER_BYTES),
        ...frames.map((f, i) =>
          encodeFrame(i < half ? verbatimPayload(f.record) : encodeRecord(f.record, true)),
        ),
      ]),
    );
    const reopened = await openTestHost({ dbPath: t.dbPath });
    const recalled = await reopened.call('recall', { query: 'KafkaBroker producer', k: 3 });
    const rows = reopened.host.store.read(allRows);
    await reopened.host.close();
    assert.ok(recalled.hits.length > 0);
    assert.deepEqual(rows, expected);
  });

  it('the known statements are only ever appended to (journals name them by index)', () => {
    const pinned = KNOWN_STATEMENTS.slice(0, 13).join('\n');
    assert.equal(
      createHash('sha256').update(pinned).digest('hex').slice(0, 16),
      PINNED_HASH,
      'an entry of KNOWN_STATEMENTS changed: add the new text at the end instead',
    );
  });
});

const PINNED_HASH = '3e23ae67e49ef9ec';
