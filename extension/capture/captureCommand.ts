import * as vscode from 'vscode';
import type { EngineConnection } from '../engineConnection';
import { guardedCommand } from '../commands/guardedCommand';
import type { CaptureControl } from './captureControl';
import type { GeneratedDocumentProvider } from '../memoryDocuments';
import { sessionTranscriptText } from './sessionTranscriptText';

/**
 * `engram.captureSessions`: turns capture on or off for the workspace, reads now, or purges what
 * was kept (for real: the sessions and everything derived from them, engine/capture/purge.ts).
 */
export function registerCaptureCommand(
  capture: CaptureControl,
  engine: Pick<EngineConnection, 'call'>,
  log: vscode.LogOutputChannel,
  /** After a purge (the Sessions view re-reads). */
  purged: () => void,
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
    if (picked?.action === 'purge' && (await purge(engine))) purged();
  });
}

/** True when something was purged. */
async function purge(engine: Pick<EngineConnection, 'call'>): Promise<boolean> {
  const before = await vscode.window.showInputBox({
    title: 'Purge the sessions that started before',
    prompt: 'A date (2026-01-01) or an age (30d); 0d purges every captured session',
    value: '30d',
  });
  if (!before) return false;
  const report = await engine.call('capturePurge', { before });
  void vscode.window.showInformationMessage(
    `Engram purged ${report.sessions.length} captured session(s) and what was derived from them.`,
  );
  return report.sessions.length > 0;
}

/**
 * `engram.openSessionTranscript` (id, {beside?}): a captured session, redacted as stored, in a
 * read-only editor; `beside` (from the Timeline) opens it next to the panel, which keeps the focus.
 */
export function registerTranscriptCommand(
  engine: Pick<EngineConnection, 'call'>,
  documents: GeneratedDocumentProvider,
  log: vscode.LogOutputChannel,
): vscode.Disposable {
  return guardedCommand('engram.openSessionTranscript', log, async (id: unknown, how?: unknown) => {
    if (typeof id !== 'string') throw new Error('open a transcript from the Sessions view');
    const transcript = await engine.call('captureTranscript', { session: id });
    const uri = documents.show(`/sessions/${transcript.session.id}.md`, sessionTranscriptText(transcript));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
    const beside = typeof how === 'object' && how !== null && (how as { beside?: unknown }).beside === true;
    return vscode.window.showTextDocument(
      doc,
      beside
        ? { preview: true, viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }
        : { preview: true },
    );
  });
}
