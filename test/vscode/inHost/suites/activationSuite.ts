import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, engramApi, workspacePath } from '../extensionApi';
import { figures, test } from '../harness';

/** View containers, views and the like register `<view id>.<action>` commands of their own. */
const VIEW_COMMAND_PREFIXES = ['engram.memories.', 'engram.drift.', 'engram.sessions.'];

test('the extension activates, and its engine opens the workspace database as its host', async () => {
  const api = await engramApi();
  assert.equal(vscode.extensions.getExtension(EXTENSION_ID)?.isActive, true);
  assert.equal(api.engine.role, 'host');
  const db = path.join(workspacePath(), '.engram', 'memory.db');
  assert.ok(existsSync(`${db}.lock`), 'the lock file marks this window as the host');
  assert.ok(readFileSync(path.join(workspacePath(), '.engram', '.gitignore'), 'utf8').includes('*'));
  figures['activate() main-thread ms'] = Number(api.activationMs.toFixed(1));
});

test('every contributed command is registered, and every registered engram command is contributed', async () => {
  await engramApi();
  const manifest = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as {
    contributes: { commands: Array<{ command: string; category: string }> };
  };
  const contributed = manifest.contributes.commands.map((c) => c.command).sort();
  for (const c of manifest.contributes.commands)
    assert.equal(c.category, 'Engram', `${c.command} is in the Engram category`);
  const registered = (await vscode.commands.getCommands(true))
    .filter((c) => c.startsWith('engram.') && !VIEW_COMMAND_PREFIXES.some((p) => c.startsWith(p)))
    .sort();
  assert.deepEqual(registered, contributed);
  assert.ok(contributed.length >= 19, `expected the whole command surface, got ${contributed.length}`);
});

test('the status bar shows the memory count once the engine is ready, in words for a screen reader', async () => {
  const api = await engramApi();
  await api.statusBar.refresh();
  const { memories } = await api.engine.call('stats', {});
  assert.match(api.statusBar.text, new RegExp(`\\$\\(database\\) ${memories}\\b`));
  assert.doesNotMatch(api.statusBar.text, /warning/, 'no warning before anything drifted');
  assert.match(api.statusBar.accessibilityLabel ?? '', new RegExp(`^Engram: ${memories} memor(y|ies)`));
});

test('Get Started opens the walkthrough, whose steps link only to real commands', async () => {
  await engramApi();
  await vscode.commands.executeCommand('engram.openWalkthrough');
  const manifest = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as {
    contributes: { walkthroughs: Array<{ id: string; steps: Array<{ id: string }> }> };
  };
  const walkthrough = manifest.contributes.walkthroughs.find((w) => w.id === 'gettingStarted');
  assert.deepEqual(
    walkthrough?.steps.map((s) => s.id),
    ['what', 'remember', 'scan', 'chat', 'agents'],
  );
});
