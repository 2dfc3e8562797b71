import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { silentLogger } from '../../engine/host';
import { MIGRATIONS } from '../../engine/memory/schema';
import { DurableDatabase } from '../../engine/store/durableDatabase';
import type { EngineDatabase } from '../../engine/store/engineDatabase';
import { schemaVersion } from '../../engine/store/migrate';
import type { SqlWriter } from '../../engine/store/sqlAccess';
import { loadSqlJs } from '../../engine/store/sqlite';
import { openTestHost } from '../support/host';
import { SQL_WASM_PATH, tempDir } from '../support/temp';

const T = Date.parse('2025-03-01T00:00:00Z');

/** Data as a database at each schema version would hold it, written with that version's SQL. */
const SEED: Record<number, (tx: SqlWriter) => void> = {
  1: (tx) => {
    tx.run(
      "INSERT INTO memories (id, version, layer, kind, content, tags, importance, trust, scope, content_hash, status, valid_from, recorded_at, change) VALUES ('m_old1', 1, 'semantic', 'fact', 'Payments use Stripe', '[\"billing\"]', 0.7, 'human', 'shared', 'h1', 'active', ?, ?, 'created')",
      [T, T],
    );
    tx.run("INSERT INTO memory_state (id, pinned) VALUES ('m_old1', 1)");
    tx.run("INSERT INTO events (at, type, memory_id) VALUES (?, 'remember', 'm_old1')", [T]);
  },
  2: (tx) => {
    tx.run("INSERT INTO entities (key, name, type, created_at) VALUES ('stripe', 'Stripe', 'tool', ?)", [T]);
    tx.run("INSERT INTO memory_entities (memory_id, entity_id, weight) VALUES ('m_old1', 1, 0.9)");
  },
  4: (tx) => {
    tx.run(
      "INSERT INTO code_files (path, language, content_hash, size, mtime_ms, lines, parsed, has_errors, generation) VALUES ('src/pay.ts', 'typescript', 'c1', 10, 1, 1, 1, 0, 1)",
    );
    tx.run(
      "INSERT INTO code_symbols (file_id, name, kind, signature, start_line, end_line, exported) VALUES (1, 'charge', 'function', 'function charge()', 1, 1, 1)",
    );
  },
  6: (tx) => {
    tx.run("INSERT INTO drift_memories (memory_id, content_hash, extracted_at) VALUES ('m_old1', 'h1', ?)", [
      T,
    ]);
    tx.run(
      "INSERT INTO drift_claims (memory_id, kind, subject, negated, span_start, span_end) VALUES ('m_old1', 'dependency', 'stripe', 0, 13, 19)",
    );
  },
};

function schemaOf(db: EngineDatabase) {
  return db.read((r) =>
    r.all("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name"),
  );
}

describe('schema migrations', () => {
  it('are numbered 1..N without gaps', () => {
    assert.deepEqual(
      MIGRATIONS.map((m) => m.version),
      MIGRATIONS.map((_, i) => i + 1),
    );
  });

  for (let from = 0; from < MIGRATIONS.length; from++) {
    it(`migrate a database from version ${from} to ${MIGRATIONS.length} keeping its data`, async () => {
      const dbPath = path.join(tempDir(), 'memory.db');
      const sql = await loadSqlJs(SQL_WASM_PATH);
      const old = await DurableDatabase.open({
        path: dbPath,
        sql,
        logger: silentLogger,
        clock: Date.now,
        migrations: MIGRATIONS.slice(0, from),
      });
      for (let v = 1; v <= from; v++) old.write((tx) => SEED[v]?.(tx));
      assert.equal(old.read(schemaVersion), from);
      await old.close();

      const t = await openTestHost({ dbPath });
      assert.equal(t.host.store.read(schemaVersion), MIGRATIONS.length);
      const fresh = await openTestHost();
      assert.deepEqual(schemaOf(t.host.store.db), schemaOf(fresh.host.store.db));
      if (from >= 1) {
        const { memory } = await t.call('get', { id: 'm_old1' });
        assert.equal(memory.content, 'Payments use Stripe');
        assert.equal(memory.pinned, true);
        assert.deepEqual(memory.tags, ['billing']);
        const edited = await t.call('edit', { id: 'm_old1', changes: { content: 'Payments use Adyen' } });
        assert.equal(edited.version, 2);
      }
      if (from >= 2) {
        const stripe = (await t.call('entities', { query: 'stripe' }))[0];
        assert.equal(stripe?.name, 'Stripe');
      }
      if (from >= 4) {
        const [charge] = await t.call('symbols', { query: 'charge' });
        assert.equal(charge?.path, 'src/pay.ts');
      }
      await t.host.close();
      // The migrations were journaled: replaying them from the old snapshot gives the same database.
      const reopened = await openTestHost({ dbPath });
      assert.deepEqual(schemaOf(reopened.host.store.db), schemaOf(fresh.host.store.db));
    });
  }

  it('refuses a database written by a newer schema', async () => {
    const dbPath = path.join(tempDir(), 'memory.db');
    const t = await openTestHost({ dbPath });
    t.host.store.write((tx) => tx.run("UPDATE engram_meta SET value = '999' WHERE key = 'schema_version'"));
    await t.host.close();
    await assert.rejects(openTestHost({ dbPath }), /schema version 999 but this Engram knows only/);
  });
});
