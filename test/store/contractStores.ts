import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Engram } from '../../engine/engram';
import { silentLogger } from '../../engine/host';
import type { Clock } from '../../engine/host';
import { MIGRATIONS } from '../../engine/memory/schema';
import { PgJournal } from '../../engine/pgStore/pgJournal';
import { Journal } from '../../engine/store/journal';
import { LocalTransactions } from '../../engine/store/localTransactions';
import { runMigrations } from '../../engine/store/migrate';
import type { SqlWriter } from '../../engine/store/sqlAccess';
import { emptyDatabase, readMeta } from '../../engine/store/snapshotFile';
import { loadSqlJs } from '../../engine/store/sqlite';
import { storeFiles } from '../../engine/store/storeFiles';
import type { PostgresServer } from '../support/postgresServer';
import { SQL_WASM_PATH, tempDir } from '../support/temp';

/**
 * One store of the contract suite (storeContract.ts), new and empty: every `open` is another engine
 * on it, as another process of the same team would open it (on sql.js the second is a client of
 * the first over the local socket; on PostgreSQL another replica).
 */
export interface ContractStore {
  open(options?: { clock?: Clock }): Promise<Engram>;
  /** The database path and environment the memory-writer fixture opens this store with. */
  readonly writer: { dbPath: string; env: NodeJS.ProcessEnv };
  /** Before the first open: makes the store hold `database` as an older Engram left it. */
  seed(database: OlderDatabase): Promise<void>;
}

export type StoreFactory = () => Promise<ContractStore>;

/** A sql.js database's bytes at some transaction, its identity and that transaction's number. */
export interface OlderDatabase {
  bytes: Uint8Array;
  dbId: string;
  seq: number;
}

/** The sql.js store: a database file (and its journal) in a new temp directory. */
export function sqlJsStores(): StoreFactory {
  return () => {
    const dbPath = path.join(tempDir('engram-contract-'), 'memory.db');
    return Promise.resolve({
      open: (options = {}) => Engram.open({ dbPath, sqlWasmPath: SQL_WASM_PATH, ...options }),
      writer: { dbPath, env: {} },
      seed(database: OlderDatabase) {
        const files = storeFiles(dbPath);
        writeFileSync(files.database, database.bytes);
        Journal.create(files.journal, database.dbId).close();
        return Promise.resolve();
      },
    });
  };
}

let schemas = 0;

/** The PostgreSQL store: a new schema of one database on `server` (as a team's store is). */
export function postgresStores(server: () => PostgresServer): StoreFactory {
  return () => {
    const url = server().url();
    const storeSchema = `contract_${process.pid}_${++schemas}`;
    // Not opened with a store URL; only where the engine would put files of its own.
    const dbPath = path.join(tempDir('engram-contract-pg-'), 'memory.db');
    return Promise.resolve({
      open: (options = {}) =>
        Engram.open({ dbPath, store: url, storeSchema, sqlWasmPath: SQL_WASM_PATH, ...options }),
      writer: { dbPath, env: { ENGRAM_TEST_STORE: url, ENGRAM_TEST_STORE_SCHEMA: storeSchema } },
      async seed(database: OlderDatabase) {
        const journal = await PgJournal.connect(url, silentLogger, storeSchema);
        try {
          await journal.write((locked) =>
            locked.saveSnapshot({ seq: database.seq, bytes: database.bytes }, Date.now()),
          );
        } finally {
          await journal.close();
        }
      },
    });
  };
}

export const OLD_MEMORY = { id: 'm_old1', content: 'Payments use Stripe' };

/**
 * A database as Engram at schema version 1 left it, holding one memory (OLD_MEMORY) written with
 * that version's SQL: what every store must migrate at open without losing it.
 */
export async function versionOneDatabase(): Promise<OlderDatabase> {
  const sql = await loadSqlJs(SQL_WASM_PATH);
  const dbId = randomBytes(16).toString('hex');
  const db = emptyDatabase(sql, dbId);
  try {
    const at = Date.parse('2025-03-01T00:00:00Z');
    const transactions = new LocalTransactions(db, 0);
    const write = <T>(fn: (tx: SqlWriter) => T): T => transactions.write(fn, at, () => undefined);
    runMigrations({ read: (fn) => transactions.read(fn), write }, MIGRATIONS.slice(0, 1));
    write((tx) => {
      tx.run(
        "INSERT INTO memories (id, version, layer, kind, content, tags, importance, trust, scope, content_hash, status, valid_from, recorded_at, change) VALUES (?, 1, 'semantic', 'fact', ?, '[]', 0.7, 'human', 'shared', 'h1', 'active', ?, ?, 'created')",
        [OLD_MEMORY.id, OLD_MEMORY.content, at, at],
      );
      tx.run('INSERT INTO memory_state (id, pinned) VALUES (?, 0)', [OLD_MEMORY.id]);
      tx.run("INSERT INTO events (at, type, memory_id) VALUES (?, 'remember', ?)", [at, OLD_MEMORY.id]);
    });
    return { bytes: db.export(), dbId, seq: Number(readMeta(db, 'journal_seq')) };
  } finally {
    db.close();
  }
}
