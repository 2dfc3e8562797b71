import { readFileSync } from 'node:fs';
import initSqlJs from 'sql.js';
import type { Database, SqlJsStatic } from 'sql.js';

const loaded = new Map<string, Promise<SqlJsStatic>>();

/** A loaded sql.js module and its wasm memory, which its public API does not give out. */
export interface SqlModule {
  sql: SqlJsStatic;
  memory: WebAssembly.Memory;
}

/** By each module's Database.prototype: a database knows its class, not its module. */
const modules = new WeakMap<object, SqlModule>();

/** The module `db` was opened in, when it was loaded here (engine/lexical/nativeFunction.ts). */
export function sqlModuleOf(db: Database): SqlModule | undefined {
  return modules.get(Object.getPrototypeOf(db) as object);
}

/** initSqlJs with the module compiled from `wasmPath`, noted for sqlModuleOf. */
function initFrom(wasmPath: string): Promise<SqlJsStatic> {
  let memory: WebAssembly.Memory | undefined;
  // useOldExtensionFunctions: false keeps SQLite's native math functions and silences a warning
  // sql.js would otherwise print to the console (stdout is the MCP channel).
  const config = {
    instantiateWasm: instantiateFrom(readFileSync(wasmPath), (found) => (memory = found)),
    useOldExtensionFunctions: false,
  };
  return initSqlJs(config).then((sql) => {
    if (memory) modules.set(sql.Database.prototype, { sql, memory });
    return sql;
  });
}

/**
 * Loads the sql.js WebAssembly module from `wasmPath` (the host knows where its assets are).
 * Cached per path: instantiating the module costs ~100 ms and every database can share it.
 */
export function loadSqlJs(wasmPath: string): Promise<SqlJsStatic> {
  let pending = loaded.get(wasmPath);
  if (!pending) {
    pending = initFrom(wasmPath);
    loaded.set(wasmPath, pending);
  }
  return pending;
}

/**
 * A module of its own, not cached: a database opened in it (another program's, read once) grows
 * only this module's memory, which goes once the module is dropped; the shared module's memory
 * never shrinks.
 */
export function privateSqlJs(wasmPath: string): Promise<SqlJsStatic> {
  return initFrom(wasmPath);
}

/**
 * Instantiates sql.js's module from `bytes` and lets them go. Given as `wasmBinary`, the bytes stayed
 * referenced by sql.js for the life of the process beside V8's own copy of them: 690 KB of RSS the
 * compat MCP bridge held for nothing (a heap snapshot's largest ArrayBuffer after the database).
 */
function instantiateFrom(
  bytes: Buffer,
  withMemory: (memory: WebAssembly.Memory) => void,
): NonNullable<Parameters<typeof initSqlJs>[0]>['instantiateWasm'] {
  let wasm: Buffer | undefined = bytes;
  return (imports, receive) => {
    if (wasm === undefined) throw new Error('sql.js asked for its module twice');
    // A file's bytes are never a SharedArrayBuffer.
    const module = new WebAssembly.Module(wasm as Uint8Array<ArrayBuffer>);
    wasm = undefined;
    const instance = new WebAssembly.Instance(module, imports);
    const memory = Object.values(instance.exports).find((value) => value instanceof WebAssembly.Memory);
    if (memory) withMemory(memory);
    receive(instance);
    return undefined;
  };
}
