import * as vscode from 'vscode';
import type { EngineConnection } from '../engineConnection';
import { guardedCommand } from '../commands/guardedCommand';
import type { CaptureControl } from './captureControl';

/**
 * `engram.captureSessions`: turns capture on or off for the workspace, reads now, or purges what
 * was kept (for real: the sessions and everything derived from them, engine/capture/purge.ts).
 */
export function registerCaptureCommand(
  capture: CaptureControl,
  engine: Pick<EngineConnection, 'call'>,
  log: vscode.LogOutputChannel,
): vscode.Disposable {
  return guardedCommand('engram.captureSessions', log, async () => {
    if (!vscode.workspace.isTrusted) throw new Error('capture reads agent logs: trust this workspace first');
    const on = (await engine.call('captureStatus', {})).enabled;
    const items = [
      on
        ? { label: '$(circle-slash) Turn capture off', action: 'off' }
        : {
            label: '$(record) Turn capture on',
            action: 'on',
            detail: "Read this workspace's agent sessions",
          },
      ...(on ? [{ label: '$(sync) Read the sessions now', action: 'run' }] : []),
      {
        label: '$(trash) Purge captured sessions…',
        action: 'purge',
        detail: 'Deleted for real, with what was derived',
      },
    ];
    const picked = await vscode.window.showQuickPick(items, { title: 'Engram: Capture Agent Sessions' });
    if (picked?.action === 'on' || picked?.action === 'off') await capture.setEnabled(picked.action === 'on');
    if (picked?.action === 'run') await capture.runner.run();
    if (picked?.action === 'purge') await purge(engine);
  });
}

async function purge(engine: Pick<EngineConnection, 'call'>): Promise<void> {
  const before = await vscode.window.showInputBox({
    title: 'Purge the sessions that started before',
    prompt: 'A date (2026-01-01) or an age (30d); 0d purges every captured session',
    value: '30d',
  });
  if (!before) return;
  const report = await engine.call('capturePurge', { before });
  void vscode.window.showInformationMessage(
    `Engram purged ${report.sessions.length} captured session(s) and what was derived from them.`,
  );
}
