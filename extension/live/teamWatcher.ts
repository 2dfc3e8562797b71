import * as vscode from 'vscode';
import type { EngineConnection } from '../engineConnection';

/** A pull or checkout rewrites many team files at once: index them once the burst settles. */
const SETTLE_MS = 300;

/**
 * Keeps the index of the team memories in step with `.engram/team/*.md`: a pull, merge or branch
 * switch (or an edit by hand) changes the files, and the engine indexes those whose bytes changed
 * (`teamSync`); views re-read when it changed anything. The engine indexes them on open too.
 */
export function watchTeamFiles(
  root: string,
  engine: EngineConnection,
  log: vscode.LogOutputChannel,
): vscode.Disposable[] {
  const watcher = vscode.workspace.createFileSystemWatcher(
    new vscode.RelativePattern(root, '.engram/team/*.md'),
  );
  let timer: NodeJS.Timeout | undefined;
  const sync = async () => {
    timer = undefined;
    if (engine.state !== 'ready') return;
    try {
      const result = await engine.call('teamSync', {});
      for (const e of result.errors) log.warn(`team file not indexed: ${e.message}`);
      const changed = result.added.length + result.edited.length + result.retired.length;
      if (changed + result.conflicts.length + result.resolved.length > 0) engine.notifyChanged();
    } catch (error) {
      log.warn(`could not index the team files: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void sync(), SETTLE_MS);
  };
  return [
    watcher,
    watcher.onDidCreate(schedule),
    watcher.onDidChange(schedule),
    watcher.onDidDelete(schedule),
    { dispose: () => clearTimeout(timer) },
  ];
}
