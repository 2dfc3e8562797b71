import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RememberResult } from '../../../../engine/memory/types';
import type { ScanResult } from '../../../../engine/code/codeWorkspace';
import { engramApi } from '../extensionApi';
import { eventually, test } from '../harness';

/** The name the outer test waits for before it answers the trust prompt in the browser. */
export const WAITING_FOR_TRUST = 'waiting for the workspace to be trusted';

test('in Restricted Mode the extension runs: remember and recall work through the commands', async () => {
  assert.equal(vscode.workspace.isTrusted, false, 'this window opened the folder untrusted');
  const api = await engramApi();
  // Nothing remembered yet: the Memories view has no rows, so VS Code shows its welcome (with
  // buttons), not five empty layers.
  assert.deepEqual(await api.memories.getChildren(), []);
  const note = await vscode.commands.executeCommand<RememberResult>(
    'engram.rememberNote',
    'Restricted Mode still keeps the memory of this project',
    'fact',
  );
  assert.equal(note.outcome, 'added');
  const found = await api.engine.call('recall', { query: 'restricted mode memory' });
  assert.equal(found.hits[0]?.memory.id, note.memory.id);
});

test('in Restricted Mode nothing reads the workspace files: no scan, no code index, no drift check', async () => {
  const api = await engramApi();
  assert.equal(
    await vscode.commands.executeCommand<ScanResult | undefined>('engram.scanWorkspace'),
    undefined,
  );
  assert.equal(api.scans.lastScanned, undefined, 'no scan ran, not even a live one');
  // The engine was opened without the workspace to scan: the code index stays empty.
  assert.deepEqual(await api.engine.call('symbols', { query: 'hashPassword' }), []);
  await assert.rejects(api.drift.check(), /trust this workspace/);
  assert.equal(await vscode.commands.executeCommand('engram.checkDrift'), undefined);
});

test(WAITING_FOR_TRUST, async () => {
  // The outer test clicks the trust prompt's button once it sees this test start.
  await eventually('the workspace to be trusted', () => vscode.workspace.isTrusted || undefined, 120_000);
});

test('once trusted, the engine restarts with the workspace and scans it', async () => {
  const api = await engramApi();
  const symbols = await eventually(
    'the code index to have hashPassword',
    async () => {
      try {
        const found = await api.engine.call('symbols', { query: 'hashPassword' });
        return found.length > 0 ? found : undefined;
      } catch {
        return undefined;
      }
    },
    120_000,
  );
  assert.equal(symbols[0]?.path, 'src/crypto/hash.ts');
  const recalled = await api.engine.call('recall', { query: 'restricted mode memory' });
  assert.ok(recalled.hits.length > 0, 'the memory written before trust is still there');
});
