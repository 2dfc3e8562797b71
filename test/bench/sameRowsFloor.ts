import { fdatasyncSync, readFileSync, writeSync } from 'node:fs';
import type { Database, SqlJsStatic } from 'sql.js';
import { ms, round } from './stats';

/**
 * References for issue 18's write targets, measured in the same run as the engine:
 * - the rows a batched remember stored, inserted again into a bare sql.js database with the same
 *   schema (tables, indexes, the FTS4 table), batch for batch: the SQL work alone, without the
 *   journal, entity linking, tokenizing, dedupe or the method layer;
 * - an fsync'd append of the bytes one durable remember added to the journal: the disk's floor.
 */

/** Tables SQLite makes itself, and the FTS4 table's shadow tables (made by its CREATE). */
function ownedByOthers(name: string, virtualTables: readonly string[]): boolean {
  return name.startsWith('sqlite_') || virtualTables.some((v) => name.startsWith(`${v}_`));
}

/**
 * Inserts every row of the snapshot at `file` into an empty database with its schema, in `batches`
 * transactions (each takes the same share of every table), and returns the CPU time and rows/s.
 */
export function sameRowsInsert(SQL: SqlJsStatic, file: string, batches: number) {
  const source = new SQL.Database(readFileSync(file));
  const objects = source.exec(
    "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY CASE type WHEN 'table' THEN 0 ELSE 1 END, rowid",
  )[0]!.values as Array<[string, string, string]>;
  const virtualTables = objects.filter(([, , sql]) => /^CREATE VIRTUAL TABLE/i.test(sql)).map(([, n]) => n);
  const target = new SQL.Database();
  for (const [type, name, sql] of objects)
    if (!ownedByOthers(name, virtualTables) && (type === 'table' || type === 'index')) target.exec(sql);
  // The data: plain tables as they are; the FTS4 table from its content shadow table.
  const plain = objects
    .filter(
      ([type, name, sql]) => type === 'table' && !ownedByOthers(name, virtualTables) && !/VIRTUAL/i.test(sql),
    )
    .map(([, name]) => name);
  const tables = [
    ...plain.map((name) => ({ into: name, rows: allRows(source, `SELECT * FROM "${name}"`) })),
    ...virtualTables
      .filter((v) => tableExists(source, `${v}_content`))
      .map((v) => ({ into: v, rows: allRows(source, `SELECT * FROM "${v}_content"`) })),
  ];
  const rows = tables.reduce((sum, t) => sum + t.rows.length, 0);
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let b = 0; b < batches; b++) {
    target.exec('BEGIN');
    for (const table of tables) {
      const from = Math.floor((table.rows.length * b) / batches);
      const to = Math.floor((table.rows.length * (b + 1)) / batches);
      if (to <= from) continue;
      const width = table.rows[0]!.length;
      const columns = table.into === 'memory_fts' ? ftsColumns(target, width) : '';
      const statement = target.prepare(
        `INSERT INTO "${table.into}"${columns} VALUES (${Array(width).fill('?').join(', ')})`,
      );
      for (let i = from; i < to; i++) statement.run(table.rows[i]);
      statement.free();
    }
    target.exec('COMMIT');
  }
  const wallMs = ms(start);
  const used = process.cpuUsage(cpu);
  source.close();
  target.close();
  return { rows, wallMs: round(wallMs, 0), cpuMs: round((used.user + used.system) / 1000, 0) };
}

/** `(docid, col...)`: the content shadow table's first column is the docid. */
function ftsColumns(db: Database, width: number): string {
  const names = (db.exec("SELECT name FROM pragma_table_info('memory_fts')")[0]?.values ?? []).map(
    (r) => r[0],
  );
  return ` (docid, ${names.slice(0, width - 1).join(', ')})`;
}

function tableExists(db: Database, name: string): boolean {
  return (db.exec('SELECT 1 FROM sqlite_master WHERE name = ?', [name])[0]?.values.length ?? 0) > 0;
}

function allRows(db: Database, sql: string): Array<Array<string | number | Uint8Array | null>> {
  return db.exec(sql)[0]?.values ?? [];
}

/**
 * The disk's floor for one durable write: `size` bytes appended to `fd` and fdatasync'd, as the
 * journal does for a remember (its milliseconds).
 */
export function timedAppend(fd: number, size: number): number {
  const bytes = Buffer.alloc(size, 0x61);
  const start = process.hrtime.bigint();
  writeSync(fd, bytes);
  fdatasyncSync(fd);
  return ms(start);
}
