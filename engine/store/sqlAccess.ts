import type { Database, Statement } from 'sql.js';
import type { SqlParams } from './statementLog';

export type Row = Record<string, string | number | null | Uint8Array>;

/** Read access to the database: plain queries, never journaled. */
export interface SqlReader {
  all<T extends object = Row>(sql: string, params?: SqlParams): T[];
  get<T extends object = Row>(sql: string, params?: SqlParams): T | undefined;
  /** The first column of the first row, or undefined. */
  value<T = unknown>(sql: string, params?: SqlParams): T | undefined;
}

/** Write access inside a transaction: every `run` is journaled and replayed on recovery. */
export interface SqlWriter extends SqlReader {
  /** Executes a statement and returns how many rows it changed. */
  run(sql: string, params?: SqlParams): number;
}

/**
 * Prepared-statement cache over a sql.js database. Preparing dominates the cost of small
 * statements in sql.js, and the engine runs the same few statements again and again.
 */
export class StatementCache {
  private readonly statements = new Map<string, Statement>();
  /**
   * Column names by statement. sql.js's getAsObject asks SQLite for every column's name (a WASM
   * call and a string decode each) on every row; reading a large table it took most of the time.
   */
  private readonly columns = new Map<Statement, string[]>();

  constructor(private readonly db: Database) {}

  prepare(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  all<T extends object>(sql: string, params?: SqlParams): T[] {
    const statement = this.prepare(sql);
    try {
      if (params !== undefined) statement.bind(params);
      const rows: T[] = [];
      while (statement.step()) rows.push(this.rowObject<T>(statement));
      return rows;
    } finally {
      statement.reset();
    }
  }

  get<T extends object>(sql: string, params?: SqlParams): T | undefined {
    const statement = this.prepare(sql);
    try {
      if (params !== undefined) statement.bind(params);
      return statement.step() ? this.rowObject<T>(statement) : undefined;
    } finally {
      statement.reset();
    }
  }

  value<T>(sql: string, params?: SqlParams): T | undefined {
    const statement = this.prepare(sql);
    try {
      if (params !== undefined) statement.bind(params);
      return statement.step() ? (statement.get()[0] as T) : undefined;
    } finally {
      statement.reset();
    }
  }

  run(sql: string, params?: SqlParams): number {
    const statement = this.prepare(sql);
    try {
      statement.run(params);
    } finally {
      statement.reset();
    }
    return this.db.getRowsModified();
  }

  clear(): void {
    for (const statement of this.statements.values()) statement.free();
    this.statements.clear();
    this.columns.clear();
  }

  /** The current row as an object keyed by column name, as getAsObject builds it. */
  private rowObject<T>(statement: Statement): T {
    let names = this.columns.get(statement);
    if (!names) {
      names = statement.getColumnNames();
      this.columns.set(statement, names);
    }
    const values = statement.get();
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) row[names[i]!] = values[i];
    return row as T;
  }
}
