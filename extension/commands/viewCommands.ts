import * as vscode from 'vscode';
import { guardedCommand } from './guardedCommand';
import type { EngramServices } from './services';
import { GROUP_BY, GROUP_BY_LABELS } from '../memoryGroups';
import type { GroupBy } from '../memoryGroups';

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
    /** Sets `engram.memories.groupBy` where it is set now (the workspace's or the user's settings). */
    guardedCommand('engram.groupMemoriesBy', log, async (byArg?: unknown) => {
      if (byArg !== undefined && !GROUP_BY.includes(byArg as GroupBy))
        throw new Error(`group by must be one of ${GROUP_BY.join(', ')}; got ${JSON.stringify(byArg)}`);
      const by =
        (byArg as GroupBy | undefined) ??
        (
          await vscode.window.showQuickPick(
            GROUP_BY.map((value) => ({
              label: value,
              detail: GROUP_BY_LABELS[value],
              picked: value === memories.groupBy,
            })),
            { title: 'Engram: group memories by', placeHolder: `now by ${memories.groupBy}` },
          )
        )?.label;
      if (by === undefined) return undefined;
      const config = vscode.workspace.getConfiguration('engram');
      const target =
        config.inspect('memories.groupBy')?.workspaceValue !== undefined
          ? vscode.ConfigurationTarget.Workspace
          : vscode.ConfigurationTarget.Global;
      await config.update('memories.groupBy', by, target);
      return by;
    }),
    guardedCommand('engram.refreshMemories', log, () => engine.notifyChanged()),
    guardedCommand('engram.showViews', log, () => vscode.commands.executeCommand('engram.memories.focus')),
    guardedCommand('engram.showLog', log, () => log.show()),
    guardedCommand('engram.openWalkthrough', log, () =>
      vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH, false),
    ),
  ];
}
