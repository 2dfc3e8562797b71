import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { EngineConnection } from '../engineConnection';
import { LAYER_NAMES, TIMELINE_VIEW_TYPE, parseWebviewMessage } from '../../webview/timeline/protocol';
import type { DataReply, HostToWebview, TimelineData, TimelineMemory } from '../../webview/timeline/protocol';
import { summaryLine } from '../../webview/timeline/text';

/** One load draws at most this many memories and events (the engine's page limit). */
const LOAD_LIMIT = 10_000;

/**
 * The Timeline panel: one at a time, revealed again when asked twice, restored after a reload by
 * its serializer. Data is requested by the webview and re-requested when memories change.
 */
export class TimelinePanel implements vscode.Disposable {
  private static current: TimelinePanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;

  static show(
    extensionUri: vscode.Uri,
    engine: EngineConnection,
    log: vscode.LogOutputChannel,
  ): TimelinePanel {
    if (TimelinePanel.current) {
      TimelinePanel.current.panel.reveal();
      return TimelinePanel.current;
    }
    const panel = vscode.window.createWebviewPanel(
      TIMELINE_VIEW_TYPE,
      'Engram Timeline',
      vscode.ViewColumn.Active,
      webviewOptions(extensionUri),
    );
    return new TimelinePanel(panel, extensionUri, engine, log);
  }

  constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly engine: EngineConnection,
    private readonly log: vscode.LogOutputChannel,
  ) {
    TimelinePanel.current = this;
    panel.webview.options = webviewOptions(extensionUri);
    panel.webview.html = timelineHtml(panel.webview, extensionUri);
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'extension', 'media', 'engram.svg');
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((m: unknown) => void this.receive(m)),
      engine.onDidChangeMemories(() => void this.post({ type: 'timeline/data/DidChange' })),
    );
  }

  private async receive(raw: unknown): Promise<void> {
    const message = parseWebviewMessage(raw);
    if (!message) {
      this.log.warn(`timeline: ignored an unexpected message ${summaryLine(JSON.stringify(raw) ?? '', 200)}`);
      return;
    }
    switch (message.type) {
      case 'timeline/view/ready':
        return;
      case 'timeline/memory/open':
        await vscode.commands.executeCommand('engram.openMemory', message.memoryId);
        return;
      case 'timeline/data/get': {
        let reply: DataReply;
        try {
          reply = { type: 'timeline/data/reply', id: message.id, ok: true, data: await this.load() };
        } catch (error) {
          const text = error instanceof Error ? error.message : String(error);
          this.log.error(`timeline: loading failed: ${text}`);
          reply = { type: 'timeline/data/reply', id: message.id, ok: false, error: summaryLine(text, 300) };
        }
        await this.post(reply);
        return;
      }
    }
  }

  private async load(): Promise<TimelineData> {
    const [page, ledger] = await Promise.all([
      this.engine.call('list', { status: 'all', limit: LOAD_LIMIT }),
      this.engine.call('events', { limit: LOAD_LIMIT }),
    ]);
    const memories: TimelineMemory[] = page.items
      .filter((m) => (LAYER_NAMES as readonly string[]).includes(m.layer))
      .map((m) => ({
        id: m.id,
        layer: m.layer,
        kind: m.kind,
        status: m.status,
        content: summaryLine(m.content, 400),
        validFrom: m.validFrom,
        validTo: m.validTo,
        recordedAt: m.recordedAt,
        version: m.version,
      }));
    const events = ledger.events.map((e) => ({
      seq: e.seq,
      at: e.at,
      type: e.type,
      memoryId: e.memoryId,
      agent: e.agent,
    }));
    return { memories, events, truncated: page.next !== null || ledger.next !== null, now: Date.now() };
  }

  private async post(message: HostToWebview): Promise<void> {
    try {
      await this.panel.webview.postMessage(message);
    } catch (error) {
      this.log.warn(`timeline: could not post ${message.type}: ${String(error)}`);
    }
  }

  static disposeCurrent(): void {
    TimelinePanel.current?.dispose();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (TimelinePanel.current === this) TimelinePanel.current = undefined;
    this.panel.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  return {
    enableScripts: true,
    retainContextWhenHidden: false,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview')],
  };
}

/** The page: a strict CSP (nothing remote, only our nonce'd script and style), theme colours only. */
export function timelineHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = randomBytes(16).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', 'timeline.js'));
  const csp = [
    "default-src 'none'",
    `img-src ${webview.cspSource}`,
    `style-src 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    `font-src ${webview.cspSource}`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>Engram Timeline</title>
<style nonce="${nonce}">
  html, body { height: 100%; margin: 0; padding: 0; overflow: hidden; }
  body { display: flex; flex-direction: column; color: var(--vscode-foreground);
    background: var(--vscode-editor-background); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
  #toolbar { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; padding: 6px 8px;
    border-bottom: 1px solid var(--vscode-panel-border); }
  #toolbar label { display: inline-flex; gap: 3px; align-items: center; }
  input[type=search] { background: var(--vscode-input-background); color: var(--vscode-input-foreground);
    border: 1px solid var(--vscode-input-border, transparent); padding: 3px 6px; min-width: 180px; }
  button { background: var(--vscode-button-background); color: var(--vscode-button-foreground); border: none; padding: 3px 10px; cursor: pointer; }
  button:hover { background: var(--vscode-button-hoverBackground); }
  #status { color: var(--vscode-descriptionForeground); }
  #timeline { flex: 1; width: 100%; min-height: 0; cursor: grab; display: block; }
  #detail { white-space: pre-wrap; padding: 6px 8px; border-top: 1px solid var(--vscode-panel-border);
    max-height: 25%; overflow: auto; min-height: 1.5em; }
  #tooltip { position: fixed; max-width: 300px; white-space: pre-wrap; pointer-events: none; padding: 4px 6px;
    background: var(--vscode-editorHoverWidget-background); color: var(--vscode-editorHoverWidget-foreground);
    border: 1px solid var(--vscode-editorHoverWidget-border); }
</style>
</head>
<body>
<div id="toolbar">
  <span id="layers" aria-label="Layers"></span>
  <input id="search" type="search" placeholder="Filter by text" aria-label="Filter by text">
  <button id="fit" type="button">Fit</button>
  <span id="status">Loading…</span>
</div>
<canvas id="timeline" aria-label="Memories on a time axis: wheel to zoom, drag to pan, click to open"></canvas>
<div id="detail" aria-live="polite"></div>
<div id="tooltip" hidden></div>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}

/** The command and the serializer that brings the panel back after a window reload. */
export function registerTimelinePanel(
  extensionUri: vscode.Uri,
  engine: EngineConnection,
  log: vscode.LogOutputChannel,
): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('engram.openTimeline', () => {
      try {
        return TimelinePanel.show(extensionUri, engine, log).panel.viewType;
      } catch (error) {
        const text = error instanceof Error ? error.message : String(error);
        log.error(`engram.openTimeline: ${text}`);
        void vscode.window.showErrorMessage(`Engram: ${text}`);
        return undefined;
      }
    }),
    vscode.window.registerWebviewPanelSerializer(TIMELINE_VIEW_TYPE, {
      deserializeWebviewPanel: (panel: vscode.WebviewPanel) => {
        TimelinePanel.disposeCurrent();
        new TimelinePanel(panel, extensionUri, engine, log);
        return Promise.resolve();
      },
    }),
    { dispose: () => TimelinePanel.disposeCurrent() },
  ];
}
