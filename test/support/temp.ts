import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';

const require = createRequire(__filename);

/** The sql.js wasm file, located the way a host would pass it in. */
export const SQL_WASM_PATH = require.resolve('sql.js/dist/sql-wasm.wasm');

/** A fresh temp directory, removed when the test file finishes. */
export function tempDir(prefix = 'engram-test-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
