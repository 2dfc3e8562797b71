import assert from 'node:assert/strict';
import path from 'node:path';
import * as vscode from 'vscode';
import type { RememberResult } from '../../../../engine/memory/types';
import type { RecallHit } from '../../../../engine/retrieval/recall';
import type { MemoryTreeNode } from '../../../../extension/views/memoryTree';
import { engramApi, workspacePath } from '../extensionApi';
import { test } from '../harness';

const DECISION = 'We hash passwords with sha256 in src/crypto/hash.ts because the auth service requires it';
let decisionId = '';

test('Remember Note stores a memory that Recall finds', async () => {
  await engramApi();
  const result = await vscode.commands.executeCommand<RememberResult>(
    'engram.rememberNote',
    DECISION,
    'decision',
  );
  assert.equal(result.outcome, 'added');
  assert.equal(result.memory.kind, 'decision');
  decisionId = result.memory.id;
  const hits = await vscode.commands.executeCommand<RecallHit[]>(
    'engram.recall',
    'how are passwords hashed?',
  );
  assert.equal(hits[0]?.memory.id, decisionId);
});

test('Remember Selection stores the selected text with its file and lines as the source', async () => {
  await engramApi();
  const file = path.join(workspacePath(), 'src', 'auth', 'login.ts');
  const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
  editor.selection = new vscode.Selection(2, 0, 2, editor.document.lineAt(2).text.length);
  const result = await vscode.commands.executeCommand<RememberResult>('engram.rememberSelection');
  assert.match(result.memory.content, /sessions last 12 hours/);
  assert.equal(result.memory.source?.file, 'src/auth/login.ts');
  assert.equal(result.memory.context, 'src/auth/login.ts:3-3');
  const hits = await vscode.commands.executeCommand<RecallHit[]>(
    'engram.recall',
    'how long do sessions last',
  );
  assert.ok(hits.some((h) => h.memory.id === result.memory.id));
});

test('the Memories view lists layers with counts and the memories under them', async () => {
  const api = await engramApi();
  const roots = await api.memories.getChildren();
  assert.deepEqual(
    roots.map((r) => (r.type === 'layer' ? r.layer : r.type)),
    ['working', 'episodic', 'semantic', 'procedural', 'codebase'],
  );
  const semantic = roots.find(
    (r): r is Extract<MemoryTreeNode, { type: 'layer' }> => r.type === 'layer' && r.layer === 'semantic',
  );
  assert.ok(semantic && semantic.count >= 2, 'both memories are semantic');
  const rows = await api.memories.getChildren(semantic);
  const decision = rows.find((r) => r.type === 'memory' && r.memory.id === decisionId);
  assert.ok(decision, 'the decision is listed under its layer');
  const item = api.memories.getTreeItem(decision);
  assert.equal(item.contextValue, 'memory.active.unpinned');
  assert.equal((item.iconPath as vscode.ThemeIcon).id, 'law', 'decisions have their own icon');
});

test('the Memories view filter shows only what recall finds', async () => {
  const api = await engramApi();
  await vscode.commands.executeCommand('engram.filterMemories', 'sessions twelve hours login');
  const roots = await api.memories.getChildren();
  assert.ok(
    roots.every((r) => r.type === 'layer' && r.count > 0),
    'only layers with matches',
  );
  const rows = (await Promise.all(roots.map((r) => api.memories.getChildren(r)))).flat();
  assert.ok(rows.some((r) => r.type === 'memory' && /12 hours/.test(r.memory.content)));
  await vscode.commands.executeCommand('engram.clearMemoryFilter');
  assert.equal(api.memories.filter, undefined);
});

test('Pin, Unpin, Invalidate, Forget and Restore change the memory through commands', async () => {
  const api = await engramApi();
  await vscode.commands.executeCommand('engram.pinMemory', decisionId);
  assert.equal((await api.engine.call('get', { id: decisionId })).memory.pinned, true);
  await vscode.commands.executeCommand('engram.unpinMemory', decisionId);
  assert.equal((await api.engine.call('get', { id: decisionId })).memory.pinned, false);
  const note = await vscode.commands.executeCommand<RememberResult>(
    'engram.rememberNote',
    'The staging server is called bluebird',
    'fact',
  );
  await vscode.commands.executeCommand('engram.invalidateMemory', note.memory.id, 'staging was renamed');
  const invalidated = (await api.engine.call('get', { id: note.memory.id })).memory;
  assert.equal(invalidated.status, 'invalidated');
  assert.equal(invalidated.statusReason, 'staging was renamed');
  // Forgetting is undone by Restore, which brings back the status the memory had.
  await vscode.commands.executeCommand('engram.forgetMemory', note.memory.id);
  assert.equal((await api.engine.call('get', { id: note.memory.id })).memory.status, 'forgotten');
  await vscode.commands.executeCommand('engram.restoreMemory', note.memory.id);
  assert.equal((await api.engine.call('get', { id: note.memory.id })).memory.status, 'invalidated');
});

test('Open Memory shows the memory and its history as a read-only document', async () => {
  await engramApi();
  const uri = await vscode.commands.executeCommand<string>('engram.openMemory', decisionId);
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
  assert.ok(doc, 'the document is open');
  assert.equal(doc.uri.scheme, 'engram-memory');
  assert.ok(doc.getText().includes(DECISION));
  assert.match(doc.getText(), /## Versions/);
  // Memories are served by a read-only file system: edits go through the engine, as versions.
  assert.equal(vscode.workspace.fs.isWritableFileSystem('engram-memory'), false);
  await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(doc.uri, Buffer.from('x'))));
});

test('Show Context for Current File opens the context block with the memories about that file', async () => {
  await engramApi();
  const file = path.join(workspacePath(), 'src', 'auth', 'login.ts');
  await vscode.window.showTextDocument(vscode.Uri.file(file));
  const block = await vscode.commands.executeCommand<{ text: string; included: unknown[] }>(
    'engram.showFileContext',
  );
  assert.ok(block.included.length > 0);
  assert.match(block.text, /12 hours/);
  assert.ok(vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === 'engram-view'));
});
