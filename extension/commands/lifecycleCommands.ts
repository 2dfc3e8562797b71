import * as vscode from 'vscode';
import { guardedCommand } from './guardedCommand';
import { memoryIdFrom } from './memoryArgument';
import type { EngramServices } from './services';
import { memoryTitle } from '../memoryPresentation';
import { memoryUri } from '../memoryDocuments';

/** Pin, unpin, forget (with undo), restore, invalidate (with a reason), and opening a memory. */
export function registerLifecycleCommands(services: EngramServices): vscode.Disposable[] {
  const { engine, log } = services;
  return [
    guardedCommand('engram.pinMemory', log, async (arg) => {
      const id = await memoryIdFrom(arg, engine, 'Engram: memory to pin', ['active'], { pinned: false });
      return id && engine.call('pin', { id });
    }),
    guardedCommand('engram.unpinMemory', log, async (arg) => {
      const id = await memoryIdFrom(arg, engine, 'Engram: pinned memory to unpin', ['active'], {
        pinned: true,
      });
      return id && engine.call('unpin', { id });
    }),
    guardedCommand('engram.forgetMemory', log, async (arg) => {
      const id = await memoryIdFrom(arg, engine, 'Engram: memory to forget');
      if (!id) return undefined;
      const memory = await engine.call('forget', { id });
      // Forgetting is a soft delete: offer the way back rather than asking first.
      void vscode.window
        .showInformationMessage(`Engram: forgot "${memoryTitle(memory, 50)}"`, 'Undo')
        .then((choice) => choice === 'Undo' && vscode.commands.executeCommand('engram.restoreMemory', id));
      return memory;
    }),
    guardedCommand('engram.restoreMemory', log, async (arg) => {
      const id = await memoryIdFrom(arg, engine, 'Engram: memory to restore', ['forgotten', 'archived']);
      return id && engine.call('restore', { id });
    }),
    guardedCommand('engram.invalidateMemory', log, async (arg, reasonArg) => {
      const id = await memoryIdFrom(arg, engine, 'Engram: memory that is no longer true');
      if (!id) return undefined;
      const reason =
        typeof reasonArg === 'string'
          ? reasonArg
          : await vscode.window.showInputBox({
              title: 'Engram: Invalidate',
              prompt: 'Why is it no longer true?',
              validateInput: (v) => (v.trim() === '' ? 'A reason helps whoever reads this later' : undefined),
            });
      if (!reason) return undefined;
      return engine.call('invalidate', { id, reason });
    }),
    guardedCommand('engram.openMemory', log, async (arg) => {
      const id = await memoryIdFrom(arg, engine, 'Engram: memory to open', [
        'active',
        'invalidated',
        'forgotten',
      ]);
      if (!id) return undefined;
      // The tab is named by the memory's first line; the id is in the document's last line.
      const { memory } = await engine.call('get', { id, readOnly: true });
      const doc = await vscode.workspace.openTextDocument(memoryUri(memory.id, memory.content));
      await vscode.window.showTextDocument(doc, { preview: true });
      return doc.uri.toString();
    }),
  ];
}
