import type { SqlWriter } from './sqlAccess';
import type { SqlValue } from './statementLog';

/** Bound parameters per statement stay under SQLite's historical default limit of 999. */
const MAX_PARAMETERS = 999;
/** More rows per statement stopped paying off in sql.js measurements (statement text, binding). */
const MAX_ROWS = 256;

/**
 * Inserts `rows` (each the values of `insertInto`'s columns) with a few multi-row statements.
 * In sql.js every statement pays for binding, stepping and resetting through the WASM boundary,
 * so one statement for many rows costs far less than one per row. Chunks are powers of two, so a
 * table is written by at most nine distinct statements however batch sizes vary (the statement
 * cache keeps every distinct text it has prepared). `suffix` follows the VALUES list (an upsert).
 */
export function insertRows(
  tx: SqlWriter,
  insertInto: string,
  rows: readonly SqlValue[][],
  suffix = '',
): void {
  if (rows.length === 0) return;
  const columns = rows[0]!.length;
  const largest = largestPowerOfTwo(Math.min(MAX_ROWS, Math.floor(MAX_PARAMETERS / columns)));
  let start = 0;
  while (start < rows.length) {
    const size = Math.min(largest, largestPowerOfTwo(rows.length - start));
    const params = new Array<SqlValue>(size * columns);
    for (let row = 0; row < size; row++) {
      const values = rows[start + row]!;
      for (let column = 0; column < columns; column++) params[row * columns + column] = values[column]!;
    }
    tx.run(statementText(insertInto, columns, size, suffix), params);
    start += size;
  }
}

/**
 * The same string object for the same statement: the statement cache is a Map keyed by the text,
 * and a freshly built text of a few kilobytes is hashed in full on every lookup. Keyed by the
 * insert, then the suffix, then the row count: a key joined from the three was a new string,
 * hashed in full on every call (2% of a single remember's CPU, for the relations' long upsert).
 */
const statementTexts = new Map<string, Map<string, Map<number, string>>>();

function statementText(insertInto: string, columns: number, rows: number, suffix: string): string {
  let bySuffix = statementTexts.get(insertInto);
  if (!bySuffix) statementTexts.set(insertInto, (bySuffix = new Map<string, Map<number, string>>()));
  let byRows = bySuffix.get(suffix);
  if (!byRows) bySuffix.set(suffix, (byRows = new Map<number, string>()));
  let text = byRows.get(rows);
  if (text === undefined) {
    const placeholder = `(${new Array<string>(columns).fill('?').join(', ')})`;
    const values = new Array<string>(rows).fill(placeholder).join(', ');
    text = `${insertInto} VALUES ${values}${suffix ? ` ${suffix}` : ''}`;
    byRows.set(rows, text);
  }
  return text;
}

function largestPowerOfTwo(n: number): number {
  let power = 1;
  while (power * 2 <= n) power *= 2;
  return power;
}

/**
 * Rows a write holds back and inserts together when it ends (see `insertRows`). Only for rows
 * nothing reads before the flush: the owner flushes before any statement of the same transaction
 * could look for them, and discards them when the transaction fails.
 */
export class HeldRows {
  private readonly tables = new Map<string, SqlValue[][]>();

  /** `insertInto`: `INSERT INTO table (columns...)`; `row`: one value per column. */
  hold(insertInto: string, row: SqlValue[]): void {
    const rows = this.tables.get(insertInto);
    if (rows) rows.push(row);
    else this.tables.set(insertInto, [row]);
  }

  get empty(): boolean {
    return this.tables.size === 0;
  }

  /** Inserts every held row, table by table in the order each was first held. */
  flush(tx: SqlWriter): void {
    for (const [insertInto, rows] of this.tables) insertRows(tx, insertInto, rows);
    this.tables.clear();
  }

  discard(): void {
    this.tables.clear();
  }
}
