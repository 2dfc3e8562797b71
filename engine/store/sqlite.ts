import { readFileSync } from 'node:fs';
import initSqlJs from 'sql.js';
import type { SqlJsStatic } from 'sql.js';

const loaded = new Map<string, Promise<SqlJsStatic>>();

/**
 * Loads the sql.js WebAssembly module from `wasmPath` (the host knows where its assets are).
 * Cached per path: instantiating the module costs ~100 ms and every database can share it.
 */
export function loadSqlJs(wasmPath: string): Promise<SqlJsStatic> {
  let pending = loaded.get(wasmPath);
  if (!pending) {
    const wasmBinary = readFileSync(wasmPath);
    // useOldExtensionFunctions: false keeps SQLite's native math functions and silences a warning
    // sql.js would otherwise print to the console (stdout is the MCP channel).
    const config = { wasmBinary: toArrayBuffer(wasmBinary), useOldExtensionFunctions: false };
    pending = initSqlJs(config);
    loaded.set(wasmPath, pending);
  }
  return pending;
}

function toArrayBuffer(bytes: Buffer): ArrayBuffer {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return copy.buffer;
}
