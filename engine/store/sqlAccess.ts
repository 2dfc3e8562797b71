import type { Database, Statement } from 'sql.js';
import type { SqlParams } from './statementLog';
import { TextBinder } from './textBinding';

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
 * Statements a cache keeps prepared. The engine's own statements number a few hundred; the rest
 * are texts that vary with their input (IN lists of any length, multi-row inserts), which would
 * otherwise be kept for the life of the database, each holding SQLite memory.
 */
export const MAX_CACHED_STATEMENTS = 1024;

/**
 * Prepared-statement cache over a sql.js database. Preparing dominates the cost of small
 * statements in sql.js, and the engine runs the same few statements again and again. The least
 * recently used statement is freed once the cache holds MAX_CACHED_STATEMENTS: every use of a
 * statement starts and ends inside one call here, so none is freed while it steps.
 */
export class StatementCache {
  /** In order of last use, oldest first (a Map iterates in insertion order). */
  private readonly statements = new Map<string, Statement>();
  /**
   * Row builders by statement (column names read once). sql.js's getAsObject asks SQLite for every
   * column's name (a WASM call and a string decode each) on every row; reading a large table it
   * took most of the time.
   */
  private readonly builders = new Map<Statement, RowBuilder>();
  /** Binds long texts natively (textBinding.ts); null until a statement was prepared, undefined if unavailable. */
  private binder: TextBinder | undefined | null = null;

  constructor(private readonly db: Database) {}

  /** Statements prepared and kept now. */
  get size(): number {
    return this.statements.size;
  }

  private prepare(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement) {
      this.statements.delete(sql);
      this.statements.set(sql, statement);
      return statement;
    }
    statement = this.db.prepare(sql);
    if (this.statements.size >= MAX_CACHED_STATEMENTS) this.evictOldest();
    this.statements.set(sql, statement);
    if (this.binder === null) this.binder = TextBinder.of(this.db, statement);
    return statement;
  }

  private evictOldest(): void {
    const [sql, statement] = this.statements.entries().next().value as [string, Statement];
    this.statements.delete(sql);
    this.builders.delete(statement);
    statement.free();
  }

  /** statement.bind(params), its long texts encoded natively where this sql.js allows. */
  private bind(statement: Statement, params: SqlParams): void {
    if (this.binder && Array.isArray(params)) this.binder.bind(statement, params);
    else statement.bind(params);
  }

  all<T extends object>(sql: string, params?: SqlParams): T[] {
    const statement = this.prepare(sql);
    try {
      if (params !== undefined) this.bind(statement, params);
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
      if (params !== undefined) this.bind(statement, params);
      return statement.step() ? this.rowObject<T>(statement) : undefined;
    } finally {
      statement.reset();
    }
  }

  value<T>(sql: string, params?: SqlParams): T | undefined {
    const statement = this.prepare(sql);
    try {
      if (params !== undefined) this.bind(statement, params);
      return statement.step() ? (statement.get()[0] as T) : undefined;
    } finally {
      statement.reset();
    }
  }

  run(sql: string, params?: SqlParams): number {
    const statement = this.prepare(sql);
    try {
      if (params !== undefined) this.bind(statement, params);
      statement.step();
    } finally {
      statement.reset();
    }
    return this.db.getRowsModified();
  }

  clear(): void {
    for (const statement of this.statements.values()) statement.free();
    this.statements.clear();
    this.builders.clear();
  }

  /** The current row as an object keyed by column name, as getAsObject builds it. */
  private rowObject<T>(statement: Statement): T {
    let build = this.builders.get(statement);
    if (!build) {
      build = rowBuilder(statement.getColumnNames());
      this.builders.set(statement, build);
    }
    return build(statement.get()) as T;
  }
}

type RowBuilder = (values: readonly unknown[]) => Record<string, unknown>;

/**
 * A function that builds one statement's row objects as a literal with its column names, compiled
 * once per statement. Assigning the names one by one (`row[name] = value`) takes V8's generic
 * keyed-store path for every column: 2 µs of a row of 28 columns, a fifth of recall at k = 1000.
 * The names are SQLite's for the engine's own statements, quoted as JSON string literals.
 */
function rowBuilder(names: readonly string[]): RowBuilder {
  const fields = names.map((name, i) => `${JSON.stringify(name)}: values[${i}]`);
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- compiled from column names, see above
  return new Function('values', `return { ${fields.join(', ')} };`) as RowBuilder;
}
