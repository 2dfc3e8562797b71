import * as vscode from 'vscode';
import { guardedCommand } from './guardedCommand';
import type { EngramServices } from './services';
import { plural } from '../memoryText';

/**
 * Engram: Tidy Memory Now: the lifecycle run VS Code also makes every 15 minutes (promote working
 * notes and important episodes, archive episodes that have faded), on demand: the plan first, then
 * what was done, with an undo that restores the archived memories and puts promoted ones back in
 * their layer. `'apply'` as the argument skips the question (tests, keybindings).
 */
export function registerTidyMemoryCommand(services: EngramServices): vscode.Disposable {
  const { engine } = services;
  return guardedCommand('engram.tidyMemory', services.log, async (arg) => {
    const plan = await engine.call('lifecycle', { dryRun: true });
    const count = plan.promoted.length + plan.archived.length;
    if (count === 0) {
      void vscode.window.showInformationMessage('Engram: nothing to promote or archive; the memory is tidy.');
      return plan;
    }
    const what = `promote ${plural(plan.promoted.length, 'memory', 'memories')} and archive ${plural(plan.archived.length, 'faded episode', 'faded episodes')}`;
    if (arg !== 'apply') {
      const choice = await vscode.window.showInformationMessage(
        `Engram: ${what}? Archived memories leave recall and can be restored.`,
        'Tidy',
      );
      if (choice !== 'Tidy') return undefined;
    }
    const done = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Engram: tidying the memory' },
      () => engine.call('lifecycle', { dryRun: false }),
    );
    void vscode.window
      .showInformationMessage(
        `Engram: promoted ${done.promoted.length}, archived ${done.archived.length}.`,
        'Undo',
      )
      .then(async (choice) => {
        if (choice !== 'Undo') return;
        for (const a of done.archived) await engine.call('restore', { id: a.memoryId });
        for (const p of done.promoted)
          await engine.call('edit', { id: p.memoryId, changes: { layer: p.from } });
      });
    return done;
  });
}
