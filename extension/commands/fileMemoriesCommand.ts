import * as vscode from 'vscode';
import { guardedCommand } from './guardedCommand';
import type { EngramServices } from './services';
import { memoriesAboutFile } from '../editor/fileMemories';
import { memoryDescription, memoryTitle } from '../memoryPresentation';

interface MemoryItem extends vscode.QuickPickItem {
  id: string;
}

/**
 * The CodeLens's click: the memories that mention the file (the ones the lens counts) in a quick
 * pick; choosing one opens it. Returns the opened memory's id (undefined when none was chosen).
 */
export function registerFileMemoriesCommand(services: EngramServices): vscode.Disposable {
  const { engine, drift, log } = services;
  return guardedCommand('engram.showFileMemories', log, async (uriArg?: unknown) => {
    const uri = uriArg instanceof vscode.Uri ? uriArg : vscode.window.activeTextEditor?.document.uri;
    if (!uri || uri.scheme !== 'file') throw new Error('open a file to see the memories about it');
    const file = vscode.workspace.asRelativePath(uri, false);
    const memories = await memoriesAboutFile(engine, file);
    if (memories.length === 0) {
      void vscode.window.showInformationMessage(`Engram: no memory mentions ${file} yet.`);
      return undefined;
    }
    const items: MemoryItem[] = memories.map((m) => ({
      label: `$(${drift.isStale(m.id) ? 'warning' : 'note'}) ${memoryTitle(m)}`,
      description: `${drift.isStale(m.id) ? 'stale · ' : ''}${memoryDescription(m)}`,
      detail: m.content.replace(/\s+/g, ' '),
      id: m.id,
    }));
    const picked = await vscode.window.showQuickPick(items, {
      title: `Engram: ${memories.length === 1 ? '1 memory mentions' : `${memories.length} memories mention`} ${file}`,
      placeHolder: 'Choose a memory to open it',
      matchOnDescription: true,
      matchOnDetail: true,
    });
    if (!picked) return undefined;
    await vscode.commands.executeCommand('engram.openMemory', picked.id);
    return picked.id;
  });
}
