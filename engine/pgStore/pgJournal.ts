import type * as Pg from 'pg';
import type { Pool, PoolClient } from 'pg';
import { EngramError, invalidInput } from '../errors';
import type { Logger } from '../host';
import { decodeRecord, encodeRecord } from '../store/statementLog';
import type { TransactionRecord } from '../store/statementLog';
import { JournalPosition, journalChannel } from './journalPosition';
import { namedStatements } from './namedStatements';
import { ensureRecallTables } from './recallTables';
import type { Queryable, VectorColumn } from './recallTables';

/**
 * The store of record of a PostgreSQL team store: the journal of every write transaction (the
 * records a sql.js store appends to its journal file, statementLog.ts) and snapshots of the whole
 * sql.js database. Each server process is a replica that loads the newest snapshot and replays
 * the records after it (replicaDatabase.ts); writes are serialised across processes by one
 * transaction-scoped advisory lock.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS engram_journal (
  seq bigint PRIMARY KEY,
  at bigint NOT NULL,
  record bytea NOT NULL
);
CREATE TABLE IF NOT EXISTS engram_snapshots (
  seq bigint PRIMARY KEY,
  at bigint NOT NULL,
  database bytea NOT NULL
);
CREATE TABLE IF NOT EXISTS engram_timed_runs (
  name text PRIMARY KEY,
  ran_at bigint NOT NULL,
  runs bigint NOT NULL
);`;

/** Checked before it is put into SQL unquoted (it cannot be a parameter there). */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The advisory lock every writer takes: any fixed number, the same in every process. */
const WRITE_LOCK = 0x656e6772616d; // "engram"

/** A snapshot: the exported sql.js database holding every transaction up to `seq`. */
export interface StoredSnapshot {
  seq: number;
  bytes: Uint8Array;
}

/** A transaction on a connection of its own, open until `end` (storeClaims.ts). */
export interface HeldTransaction {
  readonly db: Queryable;
  /** Commits (releasing its transaction-scoped locks) and gives the connection back. */
  end(): Promise<void>;
}

/** What a writer does inside its PostgreSQL transaction, holding the write lock. */
export interface LockedJournal {
  latestSeq(): Promise<number>;
  recordsAfter(seq: number): Promise<TransactionRecord[]>;
  newestSnapshot(): Promise<StoredSnapshot | undefined>;
  append(records: readonly TransactionRecord[]): Promise<void>;
  /** True when no snapshot exists yet (a new store). */
  empty(): Promise<boolean>;
  saveSnapshot(snapshot: StoredSnapshot, at: number): Promise<void>;
  /** The transaction's connection: recall's tables are written in it (recallRowSync.ts). */
  readonly db: Queryable;
}

export class PgJournal {
  /** How this store keeps embeddings (recallTables.ts), known once connected. */
  vectorColumn: VectorColumn = 'real[]';
  /** Where the journal is, as heard from PostgreSQL's notifications (journalPosition.ts). */
  position: JournalPosition | undefined;
  /** The newest journal position a read's own statement saw since `observe()`. */
  private observed: number | undefined;
  private readonly named: Queryable;

  private constructor(
    private readonly pool: Pool,
    /** The URL without its password, for messages. */
    readonly where: string,
  ) {
    this.named = namedStatements(pool);
  }

  /**
   * Connects to `url` (postgres://user:password@host:port/database) and creates the tables if they
   * are missing. A malformed URL or a server that cannot be reached fails with one line.
   * `schema` (a team's store, engine/teamServer/teamStores.ts) keeps the tables in that schema,
   * created if missing, instead of the connection's default one.
   */
  static async connect(url: string, logger: Logger, schema?: string): Promise<PgJournal> {
    const where = `${describeUrl(url)}${schema ? ` (schema ${schema})` : ''}`;
    if (schema !== undefined && !SCHEMA_NAME.test(schema))
      throw invalidInput(`a store schema must be lower-case letters, digits and _; got "${schema}"`);
    // Loaded only here (dist/lazy/pg.js): the team server on PostgreSQL is the driver's one user.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Pool } = require('pg') as typeof Pg;
    const config = {
      connectionString: url,
      connectionTimeoutMillis: 5000,
      // Every connection of the pool, so every unqualified table below is the schema's; `public`
      // after it for pgvector's type and operators, installed there once per database.
      ...(schema ? { options: `-c search_path=${schema},public` } : {}),
    };
    // Three: a served call's write transaction, the reads it makes meanwhile (recall's tables),
    // and a claim held while this process embeds a batch (HeldTransaction).
    const pool = new Pool({ ...config, max: 3 });
    // An idle connection broken by a server restart is reported here; the next query reconnects.
    pool.on('error', (error) => logger.warn(`PostgreSQL connection lost: ${oneLine(error)}`));
    const journal = new PgJournal(pool, where);
    try {
      await journal.locked(async (client) => {
        if (schema) await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
        await client.query(SCHEMA);
        journal.vectorColumn = await ensureRecallTables(client);
        const current = await client.query<{ name: string }>('SELECT current_schema() AS name');
        journal.channel = journalChannel(current.rows[0]?.name ?? '');
      });
      journal.position = new JournalPosition(config, journal.channel, logger, () => journal.latestSeq());
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw new EngramError('UNAVAILABLE', `cannot use PostgreSQL at ${where}: ${oneLine(error)}`);
    }
    return journal;
  }

  /** The last record's seq (0 when none): one cheap query. */
  async latestSeq(): Promise<number> {
    const seq = await this.unavailableOnFailure(() => latestSeq(this.pool));
    this.position?.saw(seq);
    return seq;
  }

  /** Starts noting the journal position that reads' own statements see (`observedSeq`). */
  observe(): void {
    this.observed = undefined;
  }

  /** The newest journal position a read's statement saw since `observe()`, if one asked. */
  observedSeq(): number | undefined {
    return this.observed;
  }

  /** What a read's statement saw of the journal (pgLexicalSearch.ts's statistics). */
  saw(seq: number): void {
    this.observed = Math.max(this.observed ?? 0, seq);
    this.position?.saw(seq);
  }

  async recordsAfter(seq: number): Promise<TransactionRecord[]> {
    return decodeRows(
      await this.query<RecordRow>('SELECT record FROM engram_journal WHERE seq > $1 ORDER BY seq', [seq]),
    );
  }

  /**
   * Runs `fn` in one PostgreSQL transaction holding the write lock, and commits. Whatever fails
   * (`fn`, the connection, COMMIT) is thrown as UNAVAILABLE: the caller's write was not kept, or
   * was and a re-send with the same request id is answered from it.
   */
  async write<T>(fn: (journal: LockedJournal) => Promise<T>): Promise<T> {
    let appended = 0;
    try {
      const result = await this.locked((client) =>
        fn(lockedJournal(client, this.channel, (seq) => (appended = Math.max(appended, seq)))),
      );
      this.position?.saw(appended);
      return result;
    } catch (error) {
      if (EngramError.is(error)) throw error;
      throw new EngramError('UNAVAILABLE', `PostgreSQL at ${this.where} failed: ${oneLine(error)}`);
    }
  }

  /**
   * Runs reads of recall's tables on the pool, each statement prepared once per connection
   * (namedStatements.ts); a failure is UNAVAILABLE, as the journal's are.
   */
  reading<T>(fn: (db: Queryable) => Promise<T>): Promise<T> {
    return this.unavailableOnFailure(() => fn(this.named));
  }

  /**
   * A transaction of its own, held open until `end`: the transaction-scoped advisory locks taken
   * in it are held until then, and PostgreSQL releases them if this process dies.
   */
  async held(): Promise<HeldTransaction> {
    const client = await this.unavailableOnFailure(() => this.pool.connect());
    let broken: Error | undefined;
    const lost = (error: Error): void => {
      broken = error;
    };
    client.on('error', lost);
    try {
      await client.query('BEGIN');
    } catch (error) {
      client.off('error', lost);
      client.release(true);
      throw new EngramError('UNAVAILABLE', `PostgreSQL at ${this.where} failed: ${oneLine(error)}`);
    }
    let ended = false;
    return {
      db: client,
      async end() {
        if (ended) return;
        ended = true;
        try {
          await client.query('COMMIT');
        } catch (error) {
          broken ??= error instanceof Error ? error : new Error(String(error));
        } finally {
          client.off('error', lost);
          client.release(broken);
        }
      },
    };
  }

  async close(): Promise<void> {
    await this.position?.close();
    await this.pool.end();
  }

  /** The channel this store's appends are announced on (journalPosition.ts). */
  private channel = '';

  private async locked<T>(fn: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    // A connection lost while checked out (a server restart) is reported on the client too; the
    // query in progress fails with it. Without a listener the process would exit.
    const lost = (error: Error): void => {
      broken = error;
    };
    client.on('error', lost);
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [WRITE_LOCK]);
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      broken = error instanceof Error ? error : new Error(String(error));
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.off('error', lost);
      // A connection that failed is not given back: the next call gets a fresh one.
      client.release(broken);
    }
  }

  private async query<R extends object>(sql: string, params: unknown[] = []): Promise<R[]> {
    return this.unavailableOnFailure(async () => (await this.pool.query<R>(sql, params)).rows);
  }

  private async unavailableOnFailure<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw new EngramError('UNAVAILABLE', `PostgreSQL at ${this.where} failed: ${oneLine(error)}`);
    }
  }
}

interface RecordRow {
  record: Buffer;
}

function lockedJournal(client: PoolClient, channel: string, appended: (seq: number) => void): LockedJournal {
  return {
    db: client,
    latestSeq: () => latestSeq(client),
    newestSnapshot: () => newestSnapshot(client),
    async recordsAfter(seq) {
      const result = await client.query<RecordRow>(
        'SELECT record FROM engram_journal WHERE seq > $1 ORDER BY seq',
        [seq],
      );
      return decodeRows(result.rows);
    },
    async append(records) {
      for (const [i, record] of records.entries()) {
        const values = [record.seq, record.at, encodeRecord(record)];
        // The last record announces the transaction (sent at COMMIT, never if it rolls back),
        // in its insert's statement: no round trip of its own.
        if (i < records.length - 1)
          await client.query('INSERT INTO engram_journal (seq, at, record) VALUES ($1, $2, $3)', values);
        else
          await client.query(
            `INSERT INTO engram_journal (seq, at, record)
             SELECT $1, $2, $3 FROM (SELECT pg_notify($4, $5)) announced`,
            [...values, channel, String(record.seq)],
          );
        appended(record.seq);
      }
    },
    async empty() {
      return (await client.query('SELECT 1 FROM engram_snapshots LIMIT 1')).rowCount === 0;
    },
    async saveSnapshot(snapshot, at) {
      await client.query(
        'INSERT INTO engram_snapshots (seq, at, database) VALUES ($1, $2, $3) ON CONFLICT (seq) DO NOTHING',
        [snapshot.seq, at, Buffer.from(snapshot.bytes)],
      );
      // Keep the two newest snapshots and the records after the older one: a snapshot that
      // turned out unreadable still leaves a way back, as `.prev` does for the file store.
      const kept = await client.query<{ seq: string }>(
        'SELECT seq FROM engram_snapshots ORDER BY seq DESC OFFSET 1 LIMIT 1',
      );
      const older = kept.rows[0]?.seq;
      if (older === undefined) return;
      await client.query('DELETE FROM engram_snapshots WHERE seq < $1', [older]);
      await client.query('DELETE FROM engram_journal WHERE seq <= $1', [older]);
    },
  };
}

async function latestSeq(db: Queryable): Promise<number> {
  const result = await db.query<{ seq: string | null }>('SELECT max(seq) AS seq FROM engram_journal');
  return Number(result.rows[0]?.seq ?? 0);
}

async function newestSnapshot(db: Queryable): Promise<StoredSnapshot | undefined> {
  const result = await db.query<{ seq: string; database: Buffer }>(
    'SELECT seq, database FROM engram_snapshots ORDER BY seq DESC LIMIT 1',
  );
  const row = result.rows[0];
  return row ? { seq: Number(row.seq), bytes: new Uint8Array(row.database) } : undefined;
}

function decodeRows(rows: RecordRow[]): TransactionRecord[] {
  return rows.map((row) => decodeRecord(row.record));
}

/** `postgres://user@host:port/database` (no password), or a one-line error for a bad URL. */
export function describeUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidInput(
      `--store must be a postgres://user:password@host:port/database URL; got ${url.slice(0, 80)}`,
    );
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')
    throw invalidInput(
      `--store must be a postgres:// or postgresql:// URL; got ${parsed.protocol.slice(0, 20)}//...`,
    );
  const host = parsed.hostname || new URLSearchParams(parsed.search).get('host') || 'localhost';
  const user = parsed.username ? `${decodeURIComponent(parsed.username)}@` : '';
  return `${parsed.protocol}//${user}${host}${parsed.port ? `:${parsed.port}` : ''}${parsed.pathname}`;
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  const line = message.split('\n')[0] || (typeof code === 'string' ? code : 'unknown error');
  return typeof code === 'string' && !line.includes(code) ? `${line} (${code})` : line;
}
