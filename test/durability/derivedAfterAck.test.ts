import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { MIGRATIONS } from '../../engine/memory/schema';
import type { SqlReader } from '../../engine/store/sqlAccess';
import { openDurable } from '../support/durable';
import { bundledFixture } from '../support/fixtureBundle';
import { openTestHost } from '../support/host';
import { tempDir } from '../support/temp';

const CONTENT = 'PaymentService publishes to KafkaBroker through src/queue/producer.ts on port 9092';
const FIXTURE = path.join(__dirname, '..', 'fixtures', 'rememberThenKilled.ts');

/** Runs the fixture: one acknowledged remember, then SIGKILL before its derived rows. */
async function rememberThenKilled(dbPath: string): Promise<string> {
  const child = spawn(process.execPath, [bundledFixture(FIXTURE), dbPath, CONTENT], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('exit', (_code, killed) => resolve(killed)),
  );
  assert.equal(signal, 'SIGKILL', `the writer was not killed: ${err}`);
  const id = /^ack (\S+)$/m.exec(out)?.[1];
  assert.ok(id, `no acknowledgement: ${out} ${err}`);
  return id;
}

/** What a memory's derived rows say, without ids and times that differ between two stores. */
function derivedRows(r: SqlReader, id: string) {
  return {
    lexical: r.all(
      'SELECT f.content, f.context, f.tags, f.entities FROM memory_fts f JOIN memory_docs d ON d.doc = f.docid WHERE d.memory_id = ?',
      [id],
    ),
    links: r.all(
      'SELECT e.key, e.name, e.type, me.weight FROM memory_entities me JOIN entities e ON e.id = me.entity_id WHERE me.memory_id = ? ORDER BY e.key',
      [id],
    ),
    aliases: r.all(
      'SELECT a.alias, e.key FROM entity_aliases a JOIN entities e ON e.id = a.entity_id ORDER BY a.alias, e.key',
    ),
    relations: r.all(
      `SELECT s.key AS source, t.key AS target, x.type, x.strength, x.evidence_count FROM relations x
       JOIN entities s ON s.id = x.source_id JOIN entities t ON t.id = x.target_id ORDER BY source, target`,
    ),
    markers: r.all("SELECT key FROM engram_meta WHERE key LIKE 'derive:%'"),
  };
}

describe('derived rows written after the acknowledgement', () => {
  it('a SIGKILL between the acknowledgement and the derived rows loses nothing: the next open derives them', async () => {
    const dbPath = path.join(tempDir(), 'memory.db');
    const id = await rememberThenKilled(dbPath);

    // The kill landed in the window: the memory is stored, marked, and has no derived rows yet.
    const raw = await openDurable(dbPath, [...MIGRATIONS]);
    const before = raw.read((r) => derivedRows(r, id));
    assert.equal(
      raw.read((r) => r.value<number>('SELECT count(*) FROM memories WHERE id = ?', [id])),
      1,
    );
    assert.deepEqual(before.markers, [{ key: `derive:${id}` }]);
    assert.deepEqual([before.lexical, before.links], [[], []]);
    await raw.close();

    const t = await openTestHost({ dbPath });
    const recalled = await t.call('recall', { query: 'KafkaBroker producer', k: 5 });
    assert.ok(
      recalled.hits.some((hit) => hit.memory.id === id),
      'recall finds the memory after the reopen',
    );
    const after = t.host.store.read((r) => derivedRows(r, id));
    const recordedAt = t.host.store.read((r) =>
      r.value<number>('SELECT recorded_at FROM memories WHERE id = ?', [id]),
    );
    // Derived as of the remember, not of the reopen.
    const times = t.host.store.read((r) =>
      r.all<{ at: number }>(
        'SELECT created_at AS at FROM entities UNION SELECT first_seen_at FROM relations UNION SELECT last_seen_at FROM relations',
      ),
    );
    await t.host.close();

    // The same remember in a store that was never killed derives the same rows.
    const reference = await openTestHost();
    const written = await reference.call('remember', { content: CONTENT });
    const expected = reference.host.store.read((r) => derivedRows(r, written.memory.id));
    await reference.host.close();
    assert.ok(expected.links.length >= 2 && expected.relations.length >= 1, 'the content names entities');
    assert.deepEqual(after, expected);
    assert.deepEqual(times, [{ at: recordedAt }]);
  });
});
