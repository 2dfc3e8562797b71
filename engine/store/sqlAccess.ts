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
      while (statement.step()) rows.push(statement.getAsObject() as T);
      return rows;
    } finally {
      statement.reset();
    }
  }

  get<T extends object>(sql: string, params?: SqlParams): T | undefined {
    const statement = this.prepare(sql);
    try {
      if (params !== undefined) statement.bind(params);
      return statement.step() ? (statement.getAsObject() as T) : undefined;
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
  }
}
