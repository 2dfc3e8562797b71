import assert from 'node:assert/strict';
import path from 'node:path';
import * as vscode from 'vscode';
import type { RememberResult } from '../../../../engine/memory/types';
import type { RecallHit } from '../../../../engine/retrieval/recall';
import type { MemoryTreeNode } from '../../../../extension/views/memoryTree';
import { EXTENSION_ID, engramApi, workspacePath } from '../extensionApi';
import { eventually, test } from '../harness';
import { groupRows, memoryRowOf } from '../memoryRows';

const DECISION = 'We hash passwords with sha256 in src/crypto/hash.ts because the auth service requires it';
let decisionId = '';
/** The memory Remember Selection made from src/auth/login.ts. */
let selectionId = '';

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
  // The workspace scan may have written src/crypto/hash.ts's codebase memory by now, and it may
  // rank with the note: the note must be the first memory a person wrote, and in the top three.
  const notes = hits.filter((h) => h.memory.layer !== 'codebase');
  assert.equal(
    notes[0]?.memory.id,
    decisionId,
    JSON.stringify(hits.map((h) => [h.memory.id, h.memory.layer])),
  );
  assert.ok(
    hits.slice(0, 3).some((h) => h.memory.id === decisionId),
    'the note is among the first three hits',
  );
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
  selectionId = result.memory.id;
  const hits = await vscode.commands.executeCommand<RecallHit[]>(
    'engram.recall',
    'how long do sessions last',
  );
  assert.ok(hits.some((h) => h.memory.id === result.memory.id));
});

test('the Memories view groups memories by kind by default, with counts on the group rows', async () => {
  const api = await engramApi();
  assert.equal(api.memories.groupBy, 'kind');
  const groups = await groupRows(api);
  const labels = groups.map((g) => g.label);
  assert.ok(labels.includes('decision') && labels.includes('note'), labels.join(', '));
  assert.deepEqual(
    labels,
    [...labels].sort((a, b) => a.localeCompare(b)),
    'kinds in name order',
  );
  for (const group of groups) {
    const rows = await api.memories.getChildren(group);
    assert.equal(rows.length, group.count, `${group.label}: the count is the rows under it`);
    assert.equal(
      api.memories.getTreeItem(group).description,
      `${group.count} ${group.count === 1 ? 'memory' : 'memories'}`,
    );
  }
  const found = await memoryRowOf(api, decisionId);
  assert.ok(found, 'the decision is a row');
  assert.equal(found.group.label, 'decision', 'the decision is under its kind');
  const item = api.memories.getTreeItem(found.row);
  assert.equal(item.contextValue, 'memory.active.unpinned');
  assert.equal((item.iconPath as vscode.ThemeIcon).id, 'law', 'decisions have their own icon');
});

test('Group Memories By file, day or layer regroups the view; a wrong choice changes nothing', async () => {
  const api = await engramApi();
  const config = vscode.workspace.getConfiguration('engram');
  try {
    assert.equal(await vscode.commands.executeCommand('engram.groupMemoriesBy', 'file'), 'file');
    await eventually('the view to group by file', () => api.memories.groupBy === 'file' || undefined);
    const byFile = await groupRows(api);
    assert.equal((await memoryRowOf(api, selectionId))?.group.label, 'src/auth/login.ts');
    assert.equal((await memoryRowOf(api, decisionId))?.group.label, 'No file');
    assert.equal(byFile.at(-1)?.label, 'No file', 'memories without a file come last');
    await vscode.commands.executeCommand('engram.groupMemoriesBy', 'day');
    await eventually('the view to group by day', () => api.memories.groupBy === 'day' || undefined);
    assert.equal((await memoryRowOf(api, decisionId))?.group.label, 'Today');
    await vscode.commands.executeCommand('engram.groupMemoriesBy', 'layer');
    await eventually('the view to group by layer', () => api.memories.groupBy === 'layer' || undefined);
    assert.equal((await memoryRowOf(api, decisionId))?.group.label, 'semantic');
    assert.equal(await vscode.commands.executeCommand('engram.groupMemoriesBy', 'colour'), undefined);
    assert.equal(api.memories.groupBy, 'layer', 'a wrong choice leaves the grouping as it was');
  } finally {
    await config.update('memories.groupBy', undefined, vscode.ConfigurationTarget.Global);
    await config.update('memories.groupBy', undefined, vscode.ConfigurationTarget.Workspace);
  }
  assert.equal(api.memories.groupBy, 'kind');
});

test('the Memories view filter shows only what recall finds, says so, and Clear Filter ends it', async () => {
  const api = await engramApi();
  await vscode.commands.executeCommand('engram.filterMemories', 'sessions twelve hours login');
  const roots = await api.memories.getChildren();
  assert.ok(
    roots.every((r) => r.type === 'group' && r.count > 0),
    'only groups with matches',
  );
  const rows = (await Promise.all(roots.map((r) => api.memories.getChildren(r)))).flat();
  assert.ok(rows.some((r) => r.type === 'memory' && /12 hours/.test(r.memory.content)));
  const total = (await api.engine.call('stats', {})).memories;
  assert.equal(api.memories.message, `Filtered: "sessions twelve hours login" (${rows.length} of ${total})`);
  // Clear Filter is in the view's title bar only while a filter is on.
  const clear = contributedMenus()['view/title']?.find((m) => m.command === 'engram.clearMemoryFilter');
  assert.match(clear?.when ?? '', /view == engram\.memories && engram\.memoryFilterActive/);
  await vscode.commands.executeCommand('engram.clearMemoryFilter');
  assert.equal(api.memories.filter, undefined);
  assert.equal(api.memories.message, undefined, 'no filter, no message');
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
  assert.match(doc.getText(), /## History/);
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

/** The menus package.json contributes, by menu id. */
function contributedMenus(): Record<string, Array<{ command: string; when?: string }>> {
  const manifest = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as {
    contributes: { menus: Record<string, Array<{ command: string; when?: string }>> };
  };
  return manifest.contributes.menus;
}

/** The Memories view's row for a memory (no filter). */
async function memoryRow(id: string): Promise<MemoryTreeNode> {
  const found = await memoryRowOf(await engramApi(), id);
  assert.ok(found, `memory ${id} is a row of the Memories view`);
  return found.row;
}

test('a memory document reads as prose: its words, kind and age in words, its history, the id last', async () => {
  await engramApi();
  const uri = await vscode.commands.executeCommand<string>('engram.openMemory', decisionId);
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
  assert.ok(doc);
  const text = doc.getText();
  assert.ok(!/\| *field *\|/.test(text), `no raw table:\n${text}`);
  assert.match(text, /decision in semantic memory · remembered (just now|\d+ \w+ ago) by you/);
  assert.match(text, /## History\n\n- Remembered (just now|\d+ \w+ ago)/);
  // A semantic decision does not fade: kept, with the lifecycle's reasons in words.
  assert.match(text, /## Importance\n\n0\.\d\d of 1, mostly [a-z ]+; 100% retained\.\n\nKept: /);
  assert.ok(text.trimEnd().endsWith(`Memory id: \`${decisionId}\``), 'the id is the last line');
  // The tab is named by the memory's words, not by its id.
  assert.ok(!path.posix.basename(doc.uri.path).includes(decisionId), doc.uri.path);
  assert.match(path.posix.basename(doc.uri.path), /^We hash passwords/);
});

test('Edit Memory: the words open as a file, and saving it writes a new version; the old one stays', async () => {
  const api = await engramApi();
  const before = (await api.engine.call('get', { id: decisionId })).memory;
  const uri = await vscode.commands.executeCommand<string>('engram.editMemory', decisionId);
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
  assert.ok(doc, 'the edit document is open');
  assert.equal(doc.getText(), DECISION);
  assert.equal(doc.isUntitled, false);
  const edited = `${DECISION}, confirmed in the security review`;
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), edited);
  assert.ok(await vscode.workspace.applyEdit(edit));
  if (!(await doc.save())) {
    // Saved through the file system directly, to say why the editor's save did not go through.
    const direct = await Promise.resolve(vscode.workspace.fs.writeFile(doc.uri, Buffer.from(edited))).then(
      () => 'a direct write went through',
      (error: unknown) => `a direct write failed too: ${String(error)}`,
    );
    assert.fail(`the save did not go through (dirty: ${doc.isDirty}); ${direct}`);
  }
  const after = (await api.engine.call('get', { id: decisionId })).memory;
  assert.equal(after.content, edited);
  assert.equal(after.version, before.version + 1);
  const history = await api.engine.call('history', { id: decisionId });
  assert.deepEqual(
    history.versions.map((v) => v.content),
    [DECISION, edited],
    'the old wording stays in the history',
  );
  // An empty save is refused, and the memory keeps its words.
  const empty = new vscode.WorkspaceEdit();
  empty.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), '  ');
  assert.ok(await vscode.workspace.applyEdit(empty));
  assert.equal(
    await doc.save().then(
      (ok) => ok,
      () => false,
    ),
    false,
    'an empty memory is not saved',
  );
  assert.equal((await api.engine.call('get', { id: decisionId })).memory.version, after.version);
  await vscode.window.showTextDocument(doc);
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  // The same edit without the editor (chat, other extensions), and its empty case.
  assert.equal(await vscode.commands.executeCommand('engram.editMemory', decisionId, ' '), undefined);
  assert.equal((await api.engine.call('get', { id: decisionId })).memory.version, after.version);
});

test('Annotate Memory keeps a note beside the memory, shown in its document', async () => {
  const api = await engramApi();
  const note = 'Security asked for sha256 in the 2024 audit';
  await vscode.commands.executeCommand('engram.annotateMemory', decisionId, note);
  const { annotations } = await api.engine.call('history', { id: decisionId });
  assert.deepEqual(
    annotations.map((a) => a.text),
    [note],
  );
  const uri = await vscode.commands.executeCommand<string>('engram.openMemory', decisionId);
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
  assert.ok(doc);
  await eventually('the document to show the note', () => doc.getText().includes(note) || undefined);
  assert.match(doc.getText(), /## Notes\n\n- Security asked for sha256 in the 2024 audit \(you, /);
});

test("Edit, Annotate and Go to Source are on a memory's row and its document's title bar", async () => {
  const menus = contributedMenus();
  const item = (await engramApi()).memories.getTreeItem(await memoryRow(selectionId));
  assert.match(String(item.contextValue), /^memory\.sourced\.active\./);
  for (const command of ['engram.editMemory', 'engram.annotateMemory', 'engram.goToMemorySource']) {
    const row = menus['view/item/context']?.find((m) => m.command === command);
    assert.ok(row?.when?.includes('view == engram.memories'), `${command} is on the Memories view rows`);
    const title = menus['editor/title']?.find((m) => m.command === command);
    assert.ok(
      // VS Code hands the manifest's clauses back normalised (`resourceScheme == 'engram-memory'`).
      /resourceScheme == '?engram-memory\b/.test(title?.when ?? ''),
      `${command} is on the title bar: ${JSON.stringify(menus['editor/title'])} in ${Object.keys(menus).join(', ')}`,
    );
  }
});

test('Go to Source opens the file a selection was remembered from, with that text selected', async () => {
  await engramApi();
  // From the memory document's title bar: the command gets the document's URI.
  const uri = await vscode.commands.executeCommand<string>('engram.openMemory', selectionId);
  await vscode.commands.executeCommand('engram.goToMemorySource', vscode.Uri.parse(uri));
  const editor = vscode.window.activeTextEditor;
  assert.ok(editor);
  assert.equal(editor.document.uri.fsPath, path.join(workspacePath(), 'src', 'auth', 'login.ts'));
  assert.match(editor.document.getText(editor.selection), /sessions last 12 hours/);
  assert.equal(editor.selection.start.line, 2);
});

test('Memories view rows speak in words: kind, age and source, no id; the id is in the tooltip', async () => {
  const api = await engramApi();
  const decision = api.memories.getTreeItem(await memoryRow(decisionId));
  const description = String(decision.description);
  assert.match(description, /^decision · (just now|\d+ \w+ ago)/);
  assert.ok(!description.includes(decisionId.slice(0, 8)), description);
  const tooltip = (decision.tooltip as vscode.MarkdownString).value;
  assert.ok(tooltip.includes(decisionId), 'the id is in the tooltip');
  assert.ok(!/importance|trust /.test(tooltip), tooltip);
  const selection = api.memories.getTreeItem(await memoryRow(selectionId));
  assert.match(String(selection.description), /^note · .* · src\/auth\/login\.ts:3-3/);
});

/** Runs a command that opens a quick pick or an input box, pressing `key` on it until it settles. */
async function answerQuickInput<T>(
  key: 'workbench.action.acceptSelectedQuickOpenItem' | 'workbench.action.closeQuickOpen',
  command: string,
  ...args: unknown[]
): Promise<T | undefined> {
  let settled = false;
  const run = Promise.resolve(vscode.commands.executeCommand<T>(command, ...args)).finally(() => {
    settled = true;
  });
  await eventually(`${command} to settle`, async () => {
    if (settled) return true;
    await vscode.commands.executeCommand(key);
    return settled || undefined;
  });
  return run;
}

test('Escape at the kind step of Remember Note keeps the note, as a note', async () => {
  const api = await engramApi();
  const text = 'The nightly export runs at 02:00 UTC from the ops box';
  // A note without a kind asks for the kind; Escape there must not lose what was typed.
  const result = await answerQuickInput<RememberResult>(
    'workbench.action.closeQuickOpen',
    'engram.rememberNote',
    text,
  );
  assert.ok(result, 'the note was saved');
  assert.equal(result.memory.content, text);
  assert.equal(result.memory.kind, 'note');
  assert.equal((await api.engine.call('get', { id: result.memory.id })).memory.content, text);
});

test('a remember is announced in the status bar (one reusable item, no stacked toasts)', async () => {
  const api = await engramApi();
  const first = await vscode.commands.executeCommand<RememberResult>(
    'engram.rememberNote',
    'Feature flags live in config/flags.yaml',
    'fact',
  );
  assert.match(api.statusBar.text, /Remembered: Feature flags live in config\/flags\.yaml/);
  const second = await vscode.commands.executeCommand<RememberResult>(
    'engram.rememberNote',
    'The flag service caches values for 30 seconds',
    'fact',
  );
  // The second replaces the first in the same item; clicking it opens the new memory.
  assert.match(api.statusBar.text, /Remembered: The flag service caches/);
  assert.doesNotMatch(api.statusBar.text, /Feature flags live/);
  assert.deepEqual(api.statusBar.command?.arguments, [second.memory.id]);
  assert.notEqual(first.memory.id, second.memory.id);
});

test('Unpin lists only pinned memories, and says so when none is pinned', async () => {
  const api = await engramApi();
  // The decision is older than most memories: a list of every memory would not offer it first.
  await vscode.commands.executeCommand('engram.pinMemory', decisionId);
  await answerQuickInput('workbench.action.acceptSelectedQuickOpenItem', 'engram.unpinMemory');
  assert.equal(
    (await api.engine.call('get', { id: decisionId })).memory.pinned,
    false,
    'the pinned one was offered',
  );
  const pinned = await api.engine.call('list', { pinned: true });
  assert.equal(pinned.total, 0);
  // Nothing pinned: no pick at all (the command returns at once with a message).
  assert.equal(await vscode.commands.executeCommand('engram.unpinMemory'), undefined);
});

test('Show Context with no editor open shows the workspace-wide context, not an error', async () => {
  await engramApi();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  assert.equal(vscode.window.activeTextEditor, undefined);
  const block = await vscode.commands.executeCommand<{ text: string; included: unknown[] }>(
    'engram.showFileContext',
  );
  assert.ok(block, 'a context block, not an error');
  assert.ok(block.included.length > 0, 'the workspace has memories to show');
  const shown = vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === 'engram-view');
  assert.ok(shown, 'the block is open');
  assert.match(shown.document.getText(), /Engram context for the workspace/);
});

test('Tidy Memory Now promotes an old working note and archives a faded episode, with undo by restore', async () => {
  const api = await engramApi();
  const day = 24 * 60 * 60 * 1000;
  const note = await api.engine.call('remember', {
    content: 'Scratch: the flaky upload test needs a longer timeout',
    layer: 'working',
    validFrom: Date.now() - 60 * 60 * 1000,
    actor: { session: 'tidy-test' },
  });
  const faded = await api.engine.call('remember', {
    content: 'Lunch was late on the day of the offsite',
    layer: 'episodic',
    importance: 0,
    validFrom: Date.now() - 200 * day,
    actor: { agent: 'tidy-test-agent' },
  });
  const done = await vscode.commands.executeCommand<{
    promoted: Array<{ memoryId: string }>;
    archived: Array<{ memoryId: string }>;
  }>('engram.tidyMemory', 'apply');
  assert.ok(
    done.promoted.some((p) => p.memoryId === note.memory.id),
    JSON.stringify(done),
  );
  assert.ok(
    done.archived.some((a) => a.memoryId === faded.memory.id),
    JSON.stringify(done),
  );
  const read = async (id: string) => (await api.engine.call('get', { id, readOnly: true })).memory;
  assert.equal((await read(note.memory.id)).layer, 'episodic');
  assert.equal((await read(faded.memory.id)).status, 'archived');
  await vscode.commands.executeCommand('engram.restoreMemory', faded.memory.id);
  assert.equal((await read(faded.memory.id)).status, 'active');
});
