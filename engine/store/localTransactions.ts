import type { Database } from 'sql.js';
import { EngramError } from '../errors';
import { StatementCache } from './sqlAccess';
import type { SqlReader, SqlWriter } from './sqlAccess';
import type { SqlParams, TransactionRecord } from './statementLog';
import { storedParams } from './writePolicy';

/**
 * Where a committed transaction's record goes before the local COMMIT: the journal file
 * (DurableDatabase) or the records a replica sends to PostgreSQL (engine/pgStore). It throws when
 * the record cannot be kept: the transaction is then rolled back.
 */
export type RecordSink = (record: TransactionRecord) => void;

/**
 * The write transactions of one in-memory sql.js database, each recorded as its statements with
 * their bound parameters (statementLog.ts) and numbered: what a durable store and a PostgreSQL
 * replica share. Nested writes are savepoints inside the outer transaction.
 *
 * `hold()` opens an outer transaction around several writes (a replica's call, kept until
 * PostgreSQL committed their records): writes inside it are savepoints, and `release(false)`
 * undoes all of them and their numbers.
 */
export class LocalTransactions {
  readonly statements: StatementCache;
  /** Statements of the open write transaction; nested writes append to it. */
  private openTransaction: TransactionRecord['statements'] | undefined;
  private held: { seq: number } | undefined;
  private brokenBy: Error | undefined;

  constructor(
    readonly db: Database,
    /** The last committed transaction number. */
    public seq: number,
  ) {
    this.statements = new StatementCache(db);
  }

  get inWrite(): boolean {
    return this.openTransaction !== undefined;
  }

  get broken(): Error | undefined {
    return this.brokenBy;
  }

  read<T>(fn: (reader: SqlReader) => T): T {
    return fn(this.statements);
  }

  /**
   * Runs `fn` in one transaction; its record goes to `sink` before COMMIT. If `fn` or the sink
   * throws, nothing is kept. A failed COMMIT after the sink kept the record breaks the database
   * (the record would be replayed on the next open): every later use throws.
   */
  write<T>(fn: (writer: SqlWriter) => T, at: number, sink: RecordSink): T {
    if (this.brokenBy) throw this.brokenBy;
    if (this.openTransaction) return this.nestedWrite(this.openTransaction, fn);
    const statements: TransactionRecord['statements'] = [];
    this.openTransaction = statements;
    this.control(this.held ? 'SAVEPOINT engram_write' : 'BEGIN');
    try {
      const result = fn(this.writer(statements));
      if (statements.length > 0) {
        const seq = this.seq + 1;
        this.statements.run("UPDATE engram_meta SET value = ? WHERE key = 'journal_seq'", [String(seq)]);
        sink({ seq, at, statements });
        this.commitOrBreak();
        this.seq = seq;
      } else {
        this.rollback();
      }
      return result;
    } catch (error) {
      if (!this.brokenBy) this.rollback();
      throw error;
    } finally {
      this.openTransaction = undefined;
    }
  }

  /** Opens the outer transaction of `hold` (see the class comment). */
  hold(): void {
    if (this.held || this.openTransaction) throw new Error('a transaction is already open');
    this.db.exec('BEGIN');
    this.held = { seq: this.seq };
  }

  /** Ends the outer transaction: `keep` commits its writes, otherwise they and their numbers go. */
  release(keep: boolean): void {
    const held = this.held;
    if (!held) return;
    this.held = undefined;
    if (keep) {
      this.db.exec('COMMIT');
      return;
    }
    this.db.exec('ROLLBACK');
    this.seq = held.seq;
  }

  get holding(): boolean {
    return this.held !== undefined;
  }

  clear(): void {
    this.statements.clear();
  }

  /** A write inside a write: a savepoint, so a nested failure undoes only its own statements. */
  private nestedWrite<T>(statements: TransactionRecord['statements'], fn: (writer: SqlWriter) => T): T {
    const mark = statements.length;
    this.control('SAVEPOINT nested');
    try {
      const result = fn(this.writer(statements));
      this.control('RELEASE nested');
      return result;
    } catch (error) {
      this.control('ROLLBACK TO nested');
      this.control('RELEASE nested');
      statements.length = mark;
      throw error;
    }
  }

  private writer(statements: TransactionRecord['statements']): SqlWriter {
    const cache = this.statements;
    return {
      all: (sql, params) => cache.all(sql, params),
      get: (sql, params) => cache.get(sql, params),
      value: (sql, params) => cache.value(sql, params),
      run: (sql: string, given?: SqlParams) => {
        const params = given === undefined ? undefined : storedParams(given);
        const changes = params === undefined ? execScript(this.db, sql) : cache.run(sql, params);
        statements.push([sql, params]);
        return changes;
      },
    };
  }

  private commitOrBreak(): void {
    try {
      this.control(this.held ? 'RELEASE engram_write' : 'COMMIT');
    } catch (error) {
      // The sink already holds the transaction: reopening replays it. Refuse further use.
      this.brokenBy = new EngramError(
        'STORE',
        `commit failed after journaling; reopen the database: ${String(error)}`,
      );
      throw this.brokenBy;
    }
  }

  /**
   * Runs a statement that begins or ends a transaction or savepoint, prepared once: `db.exec`
   * compiled it again on every call, four times per remember (BEGIN, SAVEPOINT and RELEASE of the
   * nested write the method runs in, COMMIT).
   */
  private control(sql: string): void {
    this.statements.run(sql);
  }

  private rollback(): void {
    try {
      if (this.held) {
        this.control('ROLLBACK TO engram_write');
        this.control('RELEASE engram_write');
      } else {
        this.control('ROLLBACK');
      }
    } catch {
      // No transaction was open (BEGIN failed): nothing to undo.
    }
  }
}

function execScript(db: Database, sql: string): number {
  db.exec(sql);
  return db.getRowsModified();
}
