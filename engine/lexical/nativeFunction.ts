import type { Database, SqlJsStatic } from 'sql.js';
import { sqlModuleOf } from '../store/sqlite';

/**
 * An SQL function of a blob and numbers, registered with SQLite through sql.js's own exports
 * instead of `Database.create_function`. sql.js's wrapper converts each argument through cwrap'd
 * calls and copies a blob byte by byte into a new array: for `bm25(matchinfo(...), w0..w3)`, which
 * SQLite calls for every matching row (2,256 for a one-shot recall at 10k memories), that wrapper
 * was most of the SQL BM25's ~55 ms, run cold in a new process. Here the blob is a view of the
 * module's memory and every call goes straight to the wasm export. Arguments arrive as
 * `create_function` would give them to `Number` (the function sees the same numbers), and a throw
 * is reported to SQLite as the same error.
 */

/** sql.js 1.16's exports used here: present on its module object, missing from its typings. */
interface SqlJsExports {
  addFunction(fn: (context: number, argc: number, argv: number) => void, signature: string): number;
  stringToNewUTF8(text: string): number;
  UTF8ToString(pointer: number, maxBytes?: number): string;
  _free(pointer: number): void;
  _sqlite3_value_type(value: number): number;
  _sqlite3_value_blob(value: number): number;
  _sqlite3_value_bytes(value: number): number;
  _sqlite3_value_double(value: number): number;
  _sqlite3_value_text(value: number): number;
  _sqlite3_result_double(context: number, value: number): void;
  _sqlite3_result_error(context: number, message: number, bytes: number): void;
  _sqlite3_create_function_v2(
    db: number,
    name: number,
    arity: number,
    flags: number,
    app: number,
    call: number,
    step: number,
    final: number,
    destroy: number,
  ): number;
}

const SQLITE_INTEGER = 1;
const SQLITE_FLOAT = 2;
const SQLITE_TEXT = 3;
const SQLITE_BLOB = 4;
const SQLITE_UTF8 = 1;
const NEEDED: Array<keyof SqlJsExports> = [
  'addFunction',
  'stringToNewUTF8',
  'UTF8ToString',
  '_free',
  '_sqlite3_value_type',
  '_sqlite3_value_blob',
  '_sqlite3_value_bytes',
  '_sqlite3_value_double',
  '_sqlite3_value_text',
  '_sqlite3_result_double',
  '_sqlite3_result_error',
  '_sqlite3_create_function_v2',
];

export type BlobFunction = (blob: Uint8Array, numbers: number[]) => number;

/** One function pointer per module and function: the callback does not depend on the database. */
const pointers = new WeakMap<SqlJsStatic, Map<BlobFunction, number>>();

/**
 * Registers `name(blob, n1, ..., n[arity-1])` on `db`. False when this sql.js lacks an export it
 * needs (the caller then uses create_function). A first argument that is not a blob gives 0.
 */
export function registerBlobFunction(db: Database, name: string, arity: number, fn: BlobFunction): boolean {
  const module = sqlModuleOf(db);
  const handle = (db as unknown as { db?: unknown }).db;
  if (!module || typeof handle !== 'number') return false;
  const sql = module.sql as unknown as SqlJsExports;
  if (NEEDED.some((key) => typeof sql[key] !== 'function')) return false;
  let byFunction = pointers.get(module.sql);
  if (!byFunction) pointers.set(module.sql, (byFunction = new Map<BlobFunction, number>()));
  let pointer = byFunction.get(fn);
  if (pointer === undefined) {
    pointer = sql.addFunction(callback(sql, module.memory, arity, fn), 'viii');
    byFunction.set(fn, pointer);
  }
  const namePointer = sql.stringToNewUTF8(name);
  try {
    return (
      sql._sqlite3_create_function_v2(handle, namePointer, arity, SQLITE_UTF8, 0, pointer, 0, 0, 0) === 0
    );
  } finally {
    sql._free(namePointer);
  }
}

function callback(
  sql: SqlJsExports,
  memory: WebAssembly.Memory,
  arity: number,
  fn: BlobFunction,
): (context: number, argc: number, argv: number) => void {
  const numbers = new Array<number>(arity - 1).fill(0);
  let buffer = memory.buffer;
  let view = new DataView(buffer);
  /** The memory's buffer, again after it grew (the old one is detached then: length 0). */
  const current = (): ArrayBuffer => {
    // `memory.buffer` is a call into V8 on every read: ~10% of this function's time when read each call.
    if (buffer.byteLength === 0) {
      buffer = memory.buffer;
      view = new DataView(buffer);
    }
    return buffer;
  };
  const valueAt = (argv: number, index: number) => {
    current();
    return view.getUint32(argv + 4 * index, true);
  };
  /** The argument as create_function passes it, then Number(): what the function always did. */
  const numberOf = (value: number): number => {
    const type = sql._sqlite3_value_type(value);
    if (type === SQLITE_INTEGER || type === SQLITE_FLOAT) return sql._sqlite3_value_double(value);
    if (type === SQLITE_TEXT)
      return Number(sql.UTF8ToString(sql._sqlite3_value_text(value), sql._sqlite3_value_bytes(value)));
    if (type === SQLITE_BLOB) return Number(blobOf(value).slice());
    return 0; // NULL: Number(null)
  };
  const blobOf = (value: number): Uint8Array => {
    const bytes = sql._sqlite3_value_bytes(value);
    const at = sql._sqlite3_value_blob(value);
    return new Uint8Array(current(), at, bytes);
  };
  return (context, argc, argv) => {
    try {
      for (let i = 1; i < arity; i++) numbers[i - 1] = i < argc ? numberOf(valueAt(argv, i)) : 0;
      const first = valueAt(argv, 0);
      const score = sql._sqlite3_value_type(first) === SQLITE_BLOB ? fn(blobOf(first), numbers) : 0;
      sql._sqlite3_result_double(context, score);
    } catch (error) {
      const message = sql.stringToNewUTF8(error instanceof Error ? error.message : String(error));
      sql._sqlite3_result_error(context, message, -1);
      sql._free(message);
    }
  };
}
