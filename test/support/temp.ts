import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';

const require = createRequire(__filename);

/** The sql.js wasm file, located the way a host would pass it in. */
export const SQL_WASM_PATH = require.resolve('sql.js/dist/sql-wasm.wasm');

const created = new Set<string>();
// Again when the test process ends: a host a test closes in a later hook (or never) may write its
// snapshot or vector file after the directory was removed, and so create it again.
process.once('exit', () => {
  for (const dir of created) rmSync(dir, { recursive: true, force: true });
});

/**
 * A fresh temp directory, removed when the test (or the file, outside a test) finishes, and again
 * when the process ends. `afterTest: false` leaves it until the process ends, for a directory a
 * child process or a later hook still uses.
 */
export function tempDir(prefix = 'engram-test-', options: { afterTest?: boolean } = {}): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  created.add(dir);
  if (options.afterTest !== false) after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
