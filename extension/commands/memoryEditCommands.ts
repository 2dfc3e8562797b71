import path from 'node:path';
import * as vscode from 'vscode';
import type { Memory } from '../../engine/index';
import { guardedCommand } from './guardedCommand';
import { memoryIdFrom } from './memoryArgument';
import type { EngramServices } from './services';
import { EDIT_SCHEME, memoryUri } from '../memoryDocuments';
import { memoryTitle } from '../memoryPresentation';
import { locateSource } from '../sourceLocation';
import { workspaceRoot } from '../workspaceRoot';

/**
 * Edit a memory's words, add a note to it, and go to the code it was remembered from. Edit and
 * Annotate call the engine's `edit` and `annotate`, as the CLI's `engram edit` and `engram annotate`
 * do: an edit is a new version (the old one stays in the history), a note is added beside it.
 */
export function registerMemoryEditCommands(services: EngramServices): vscode.Disposable[] {
  const { engine, log } = services;
  return [
    /** Opens the memory's words as a file: saving it writes the new version. `text` edits at once (tests, chat). */
    guardedCommand('engram.editMemory', log, async (arg?: unknown, text?: unknown) => {
      const id = await memoryIdFrom(arg, engine, 'Engram: memory to edit');
      if (!id) return undefined;
      if (typeof text === 'string') {
        if (text.trim() === '') throw new Error('the new text is empty: a memory cannot be empty');
        return engine.call('edit', { id, changes: { content: text } });
      }
      const { memory } = await engine.call('get', { id, readOnly: true });
      if (memory.status !== 'active')
        throw new Error(
          `"${memoryTitle(memory, 40)}" is ${memory.status}: only an active memory can be edited`,
        );
      const doc = await vscode.workspace.openTextDocument(memoryUri(memory.id, memory.content, EDIT_SCHEME));
      await vscode.window.showTextDocument(doc, { preview: false });
      void vscode.window.setStatusBarMessage(
        'Engram: save to keep your edit as a new version of the memory',
        8000,
      );
      return doc.uri.toString();
    }),
    /** A note on a memory (why it matters, a caveat) that leaves its words as they are. */
    guardedCommand('engram.annotateMemory', log, async (arg?: unknown, textArg?: unknown) => {
      const id = await memoryIdFrom(arg, engine, 'Engram: memory to annotate', ['active', 'invalidated']);
      if (!id) return undefined;
      const text =
        typeof textArg === 'string'
          ? textArg
          : await vscode.window.showInputBox({
              title: 'Engram: Annotate Memory',
              prompt: 'A note to keep with this memory (its text stays as it is)',
              validateInput: (v) => (v.trim() === '' ? 'Type the note' : undefined),
            });
      if (text === undefined) return undefined;
      if (text.trim() === '') throw new Error('the note is empty: type what to keep with the memory');
      return engine.call('annotate', { id, text });
    }),
    /** Opens the file a memory was remembered from (Remember Selection) with its text selected. */
    guardedCommand('engram.goToMemorySource', log, async (arg?: unknown) => {
      const id = await memoryIdFrom(arg, engine, 'Engram: memory whose source to open', [
        'active',
        'invalidated',
      ]);
      if (!id) return undefined;
      const { memory } = await engine.call('get', { id, readOnly: true });
      return openSource(memory);
    }),
  ];
}

async function openSource(memory: Memory): Promise<vscode.Selection> {
  const file = memory.source?.file;
  if (!file)
    throw new Error(
      `"${memoryTitle(memory, 40)}" has no source file: it was not remembered from a selection`,
    );
  const root = workspaceRoot();
  const uri = path.isAbsolute(file)
    ? vscode.Uri.file(file)
    : root
      ? vscode.Uri.file(path.join(root, file))
      : undefined;
  if (!uri) throw new Error(`open the workspace folder that holds ${file}`);
  const doc = await vscode.workspace.openTextDocument(uri).then(
    (d) => d,
    () => {
      throw new Error(`${file} is not in this workspace any more (moved or deleted?)`);
    },
  );
  const span = locateSource(doc.getText(), memory) ?? { start: 0, end: 0, exact: false };
  const selection = new vscode.Selection(doc.positionAt(span.start), doc.positionAt(span.end));
  const editor = await vscode.window.showTextDocument(doc, { selection, preview: true });
  editor.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  if (!span.exact)
    void vscode.window.showInformationMessage(
      `Engram: the remembered text is no longer in ${file}; this is where it was.`,
    );
  return selection;
}
