import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import * as vscode from 'vscode';
import type { RememberResult } from '../../../../engine/memory/types';
import { engramApi, workspacePath } from '../extensionApi';
import { eventually, test } from '../harness';

const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Engram Test', '-c', 'user.email=test@engram.invalid', ...args], {
    cwd: workspacePath(),
    stdio: 'ignore',
  });

const hashFile = () => vscode.Uri.file(path.join(workspacePath(), 'src', 'crypto', 'hash.ts'));

async function lensTitles(uri: vscode.Uri): Promise<string[]> {
  const lenses =
    (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? [];
  return lenses.map((l) => l.command?.title ?? '').filter((t) => t.includes('Engram'));
}

/** The Markdown of every hover at the first occurrence of `word` in the document. */
async function hoversAt(document: vscode.TextDocument, word: string): Promise<string[]> {
  const offset = document.getText().indexOf(word);
  assert.ok(offset >= 0, `${word} is in ${document.uri.fsPath}`);
  const hovers =
    (await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      document.uri,
      document.positionAt(offset + 2),
    )) ?? [];
  return hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)));
}

const memoryCount = (titles: string[]) => Number(/Engram: (\d+) memor/.exec(titles.join(' '))?.[1] ?? 0);

test('a CodeLens counts the memories that mention a file, and a hover lists those that name a symbol', async () => {
  await engramApi();
  const uri = hashFile();
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document);
  const before = memoryCount(await lensTitles(uri));
  const note = await vscode.commands.executeCommand<RememberResult>(
    'engram.rememberNote',
    'hashPassword in src/crypto/hash.ts must move to scrypt <img src=x onerror=alert(1)> before launch',
    'decision',
  );
  const titles = await eventually('the CodeLens to count the new memory', async () => {
    const t = await lensTitles(uri);
    return memoryCount(t) === before + 1 ? t : undefined;
  });
  assert.match(titles[0]!, /^\$\(database\) Engram: \d+ memor(y|ies)$/);

  const hover = await eventually('a hover on hashPassword', async () => {
    const texts = (await hoversAt(document, 'hashPassword')).filter((t) => t.includes('Engram'));
    return texts.length > 0 ? texts.join('\n') : undefined;
  });
  assert.match(hover, /memor(y|ies) mention(s)? hashPassword/);
  assert.ok(
    hover.includes(`command:engram.openMemory?${encodeURIComponent(JSON.stringify([note.memory.id]))}`),
  );
  // Untrusted content arrives escaped: no live HTML tag survives in the Markdown.
  assert.ok(!hover.includes('<img'), hover);
  assert.ok(hover.includes('&lt;img'), hover);

  // A word no memory names gets no Engram hover.
  assert.deepEqual(
    (await hoversAt(document, 'createHash')).filter((t) => t.includes('Engram')),
    [],
  );
});

test('clicking the CodeLens lists the memories it counts; choosing one opens it', async () => {
  const api = await engramApi();
  const uri = hashFile();
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
  const lenses =
    (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? [];
  const lens = lenses.find((l) => l.command?.title.includes('Engram'));
  assert.ok(lens?.command, 'hash.ts has its lens');
  const counted = memoryCount([lens.command.title]);
  // What a click runs: the lens's own command and arguments.
  assert.equal(lens.command.command, 'engram.showFileMemories', "not the agents' context block");
  let chosen: string | undefined;
  let settled = false;
  const click = Promise.resolve(
    vscode.commands.executeCommand<string>(
      lens.command.command,
      ...((lens.command.arguments ?? []) as unknown[]),
    ),
  ).then((id) => {
    chosen = id;
    settled = true;
  });
  // The quick pick opens once the memories are read; Enter chooses its first row.
  await eventually('the quick pick to take a choice', async () => {
    if (settled) return true;
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    return settled || undefined;
  });
  await click;
  assert.ok(chosen, 'a memory was chosen');
  const related = await api.engine.call('related', { entity: 'src/crypto/hash.ts', hops: 1, limit: 100 });
  const listed = related.memories
    .filter((m) => m.memory.status === 'active' && m.memory.layer !== 'codebase')
    .map((m) => m.memory.id);
  assert.equal(listed.length, counted, 'the pick lists as many memories as the lens counts');
  assert.ok(listed.includes(chosen), 'the chosen memory is one of those the lens counts');
  const active = vscode.window.activeTextEditor?.document.uri;
  assert.equal(active?.scheme, 'engram-memory');
  assert.ok(active.path.startsWith(`/${chosen}/`), `the chosen memory is open: ${active.toString()}`);
});

test('engram.editor.memoryHints off removes the CodeLens and the hover', async () => {
  const uri = hashFile();
  const document = await vscode.workspace.openTextDocument(uri);
  const config = vscode.workspace.getConfiguration('engram');
  await config.update('editor.memoryHints', false, vscode.ConfigurationTarget.Workspace);
  try {
    await eventually('the lens to go', async () => ((await lensTitles(uri)).length === 0 ? true : undefined));
    assert.deepEqual(
      (await hoversAt(document, 'hashPassword')).filter((t) => t.includes('Engram')),
      [],
    );
  } finally {
    await config.update('editor.memoryHints', undefined, vscode.ConfigurationTarget.Workspace);
  }
  await eventually('the lens to come back', async () =>
    (await lensTitles(uri)).length > 0 ? true : undefined,
  );
});

test('a branch switch (git rewrites .git/HEAD) rescans the whole workspace', async () => {
  const api = await engramApi();
  await eventually('no scan running', () => !api.scans.busy || undefined);
  let fullScans = 0;
  const listener = api.scans.onDidFinish(() => {
    if (api.scans.lastScanned === 'all') fullScans++;
  });
  try {
    // A new branch changes no file in the work tree: only the HEAD watcher can start this scan.
    git('checkout', '-q', '-b', 'engram-editor-suite');
    await eventually('a full scan after the checkout', () => (fullScans > 0 ? true : undefined), 30_000);
  } finally {
    listener.dispose();
    git('checkout', '-q', '-');
    git('branch', '-q', '-D', 'engram-editor-suite');
  }
});
