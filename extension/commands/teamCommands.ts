import * as vscode from 'vscode';
import { guardedCommand } from './guardedCommand';
import { memoryIdFrom } from './memoryArgument';
import type { EngramServices } from './services';

/**
 * Share a memory with the team: the engine writes `.engram/team/<id>.md`, which the user commits
 * (docs/team.md). The user confirms in a modal that names the file first; `confirmed` true skips
 * it (tests, a chat button that already asked).
 */
export function registerTeamCommands(services: EngramServices): vscode.Disposable[] {
  const { engine, log } = services;
  return [
    guardedCommand('engram.shareMemory', log, async (arg?: unknown, confirmed?: unknown) => {
      const id = await memoryIdFrom(arg, engine, 'Engram: memory to share with the team');
      if (!id) return undefined;
      const preview = await engine.call('teamShare', { id, dryRun: true });
      if (confirmed !== true) {
        const choice = await vscode.window.showInformationMessage(
          `Share this memory with the team as ${preview.file}? Commit the file to share it.`,
          { modal: true, detail: preview.text },
          'Share',
        );
        if (choice !== 'Share') return undefined;
      }
      const written = await engine.call('teamShare', { id });
      engine.notifyChanged();
      void vscode.window.showInformationMessage(
        `Engram: wrote ${written.file} (version ${written.version}); commit it to share it.`,
      );
      return written;
    }),
  ];
}
