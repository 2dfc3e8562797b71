import * as vscode from 'vscode';
import { guardedCommand } from './guardedCommand';
import type { EngramServices } from './services';

/** The walkthrough's id as VS Code names it: `<publisher>.<name>#<walkthrough id>` (package.json). */
const WALKTHROUGH = 'engram.engram#gettingStarted';

/** The Memories view's filter and refresh, the status bar's click target and the walkthrough. */
export function registerViewCommands(services: EngramServices): vscode.Disposable[] {
  const { memories, engine, log } = services;
  return [
    guardedCommand('engram.filterMemories', log, async (textArg?: unknown) => {
      const text =
        typeof textArg === 'string'
          ? textArg
          : await vscode.window.showInputBox({
              title: 'Engram: Filter Memories',
              prompt: 'Show the memories that recall finds for this text',
              value: memories.filter ?? '',
            });
      if (text === undefined) return undefined;
      memories.setFilter(text);
      return memories.filter;
    }),
    guardedCommand('engram.clearMemoryFilter', log, () => memories.setFilter(undefined)),
    guardedCommand('engram.refreshMemories', log, () => engine.notifyChanged()),
    guardedCommand('engram.showViews', log, () => vscode.commands.executeCommand('engram.memories.focus')),
    guardedCommand('engram.showLog', log, () => log.show()),
    guardedCommand('engram.openWalkthrough', log, () =>
      vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH, false),
    ),
  ];
}
