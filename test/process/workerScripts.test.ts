import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { Engram } from '../../engine/engram';
import { EngramError } from '../../engine/errors';
import { checkWorkerScripts, sourceWorkerScripts, workerScriptsIn } from '../../engine/process/workerScripts';
import { grammarsDirectory, workspaceWith } from '../code/codeWorkspace';
import { SQL_WASM_PATH, tempDir } from '../support/temp';

// Worker scripts reach the engine from the host, as sql.js's wasm does (engine/process/workerScripts.ts).

const EXITING_WORKER = path.join(__dirname, 'fixtures', 'exitingWorker.js');

test('a host that passes a missing worker script gets one line naming it, and no database', async () => {
  const dbPath = path.join(tempDir(), 'workspace', '.engram', 'memory.db');
  const missing = path.join(tempDir(), 'dist', 'checkpointWorker.js');
  await assert.rejects(
    Engram.open({
      dbPath,
      sqlWasmPath: SQL_WASM_PATH,
      workers: { ...sourceWorkerScripts(), checkpoint: { file: missing } },
    }),
    (error: unknown) => {
      assert.ok(EngramError.is(error, 'INVALID_INPUT'), String(error));
      assert.equal(error.message, `the checkpoint worker script is missing: ${missing}`);
      return true;
    },
  );
  assert.equal(existsSync(path.dirname(dbPath)), false, 'nothing was created');
});

test('the engine starts the scan worker the host passed', async () => {
  const root = workspaceWith({ 'src/a.ts': 'export const a = 1;\n' });
  const engram = await Engram.open({
    dbPath: path.join(tempDir(), 'memory.db'),
    sqlWasmPath: SQL_WASM_PATH,
    workers: { ...sourceWorkerScripts(), scan: { file: EXITING_WORKER } },
    code: { root, grammarsDirectory: grammarsDirectory() },
  });
  after(() => engram.close());
  await assert.rejects(engram.call('scan', {}), /scan worker exited with code 7/);
});

test('the sources and the build (dist/, as the hosts locate it) have every worker', () => {
  checkWorkerScripts(sourceWorkerScripts());
  checkWorkerScripts(workerScriptsIn(path.resolve(__dirname, '../../dist')));
});
