import * as vscode from 'vscode';
import type { EngineConnection } from './engineConnection';
import { readSettings } from './settings';

const SECTION = 'engram.lifecycle';

/**
 * Hands the `engram.lifecycle.*` settings to the engine, which keeps them in the database
 * (engine/lifecycle/lifecycleSettings.ts): each time the engine is ready (it may have reopened, or
 * another process may host the database now) and when one changes, without a reload. A wrong
 * value is refused by the engine as a whole, changing nothing, and shown in one line naming its
 * setting. Resolves with the settings in force, or undefined when refused.
 */
export function syncLifecycleSettings(
  engine: EngineConnection,
  log: vscode.LogOutputChannel,
): vscode.Disposable & { synced: () => Promise<unknown> } {
  let last: Promise<unknown> = Promise.resolve();
  const push = () => {
    last = last.then(() => send(engine, log));
    return last;
  };
  const disposables = [
    engine.onDidChangeState((state) => state === 'ready' && void push()),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(SECTION) && void push()),
  ];
  if (engine.state === 'ready') void push();
  return {
    synced: () => last,
    dispose: () => {
      for (const d of disposables) d.dispose();
    },
  };
}

async function send(engine: EngineConnection, log: vscode.LogOutputChannel): Promise<unknown> {
  try {
    const result = await engine.call('configureLifecycle', readSettings().lifecycle as never);
    if (result.changed) log.info(`lifecycle settings: ${JSON.stringify(result.settings)}`);
    return result.settings;
  } catch (error) {
    // The engine names the field first (`halfLifeDays must be ...`): the user knows it by its setting.
    const message = error instanceof Error ? error.message : String(error);
    log.warn(`lifecycle settings refused: ${message}`);
    void vscode.window.showErrorMessage(`Engram: setting ${SECTION}.${message}`);
    return undefined;
  }
}
