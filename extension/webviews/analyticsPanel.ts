import * as vscode from 'vscode';
import type { EngineConnection } from '../engineConnection';
import { guardedCommand } from '../commands/guardedCommand';
import { ANALYTICS_VIEW_TYPE, parseWebviewMessage } from '../../webview/analytics/protocol';
import type { HealthReply, HostToWebview, WebviewToHost } from '../../webview/analytics/protocol';
import { ANALYTICS_BODY, ANALYTICS_CSS } from '../../webview/analytics/page';
import { summaryLine } from '../../webview/shared/text';
import { SinglePanel, singlePanelSerializer } from './singlePanel';
import type { SinglePanelKind } from './singlePanel';

/** Writes closer together than this reload the section once (a scan writes in bursts). */
const CHANGE_SETTLE_MS = 1_000;

const ANALYTICS_PANEL: SinglePanelKind<WebviewToHost> = {
  viewType: ANALYTICS_VIEW_TYPE,
  title: 'Engram Analytics',
  scope: 'analytics',
  page: { css: ANALYTICS_CSS, body: ANALYTICS_BODY, script: 'analytics.js' },
  parse: parseWebviewMessage,
};

/**
 * The Analytics panel (one at a time, see SinglePanel): for now its Lifecycle/Health section, from
 * the engine's `lifecycleHealth`. The webview asks for the data and asks again when memories change.
 */
export class AnalyticsPanel extends SinglePanel<WebviewToHost, HostToWebview> {
  static show(
    extensionUri: vscode.Uri,
    engine: EngineConnection,
    log: vscode.LogOutputChannel,
  ): AnalyticsPanel {
    return SinglePanel.revealOrCreate(
      ANALYTICS_PANEL,
      extensionUri,
      (panel) => new AnalyticsPanel(panel, extensionUri, engine, log),
    ).panel;
  }

  private constructor(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly engine: EngineConnection,
    log: vscode.LogOutputChannel,
  ) {
    super(panel, extensionUri, ANALYTICS_PANEL, log);
    this.postWhenChangesSettle(engine.onDidChangeMemories, CHANGE_SETTLE_MS, {
      type: 'analytics/health/DidChange',
    });
  }

  protected async receive(message: WebviewToHost): Promise<void> {
    if (message.type === 'analytics/consolidation/run') {
      // A command, no reply: the section refreshes when the run changes memories.
      await vscode.commands.executeCommand('engram.consolidateNow');
      return;
    }
    await this.post(await this.healthReply(message.id));
  }

  /** Every data request gets exactly one reply: the data, or a one-line error. */
  private async healthReply(id: number): Promise<HealthReply> {
    try {
      const data = await this.engine.call('lifecycleHealth', {});
      return { type: 'analytics/health/reply', id, ok: true, data };
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      this.log.error(`analytics: loading failed: ${text}`);
      return { type: 'analytics/health/reply', id, ok: false, error: summaryLine(text, 300) };
    }
  }

  static disposeCurrent(): void {
    SinglePanel.disposeOpen(ANALYTICS_VIEW_TYPE);
  }

  /** Takes over a panel VS Code restored after a reload. */
  static restore(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    engine: EngineConnection,
    log: vscode.LogOutputChannel,
  ): void {
    new AnalyticsPanel(panel, extensionUri, engine, log);
  }
}

/** Open Analytics and the serializer that restores the panel after a window reload. */
export function registerAnalyticsPanel(
  extensionUri: vscode.Uri,
  engine: EngineConnection,
  log: vscode.LogOutputChannel,
): vscode.Disposable[] {
  return [
    guardedCommand(
      'engram.openAnalytics',
      log,
      () => AnalyticsPanel.show(extensionUri, engine, log).panel.viewType,
    ),
    vscode.window.registerWebviewPanelSerializer(
      ANALYTICS_VIEW_TYPE,
      singlePanelSerializer(ANALYTICS_VIEW_TYPE, (panel) => {
        AnalyticsPanel.restore(panel, extensionUri, engine, log);
      }),
    ),
    { dispose: () => AnalyticsPanel.disposeCurrent() },
  ];
}
