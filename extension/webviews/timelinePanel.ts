import * as vscode from 'vscode';
import { ENGRAM_ICON } from '../packageAssets';
import type { EngineConnection } from '../engineConnection';
import { guardedCommand } from '../commands/guardedCommand';
import { memoryIdFrom } from '../commands/memoryArgument';
import { TIMELINE_VIEW_TYPE, parseWebviewMessage } from '../../webview/timeline/protocol';
import type {
  DataReply,
  HostToWebview,
  SelectionNotification,
  TimelineData,
} from '../../webview/timeline/protocol';
import { summaryLine } from '../../webview/timeline/text';
import { timelineHtml } from './timelineHtml';
import { webviewAssets } from './webviewPage';
import { openMemoryBeside } from './openEntity';
import { openWorkspaceFile, openWorkspaceSymbol } from './timelineOpen';

/** What Reveal in Timeline returns once the webview shows the memory selected. */
export interface RevealResult {
  memoryId: string;
  /** How many memories the panel draws (with its current filters). */
  shown: number;
}

/** Writes closer together than this reload the timeline once. */
const CHANGE_SETTLE_MS = 400;

/** How long Reveal in Timeline waits for the webview to confirm the selection. */
const REVEAL_WAIT_MS = 20_000;

/**
 * The Timeline panel: one at a time, revealed again when asked twice, restored after a reload by
 * its serializer. The webview asks for data and asks again when memories change; the host only
 * validates messages, loads from the engine and opens what the user clicked.
 */
export class TimelinePanel implements vscode.Disposable {
  private static current: TimelinePanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;
  private ready = false;
  private pendingReveal: string | undefined;
  private readonly selectionWaiters: Array<(s: SelectionNotification) => void> = [];
  private changeTimer: ReturnType<typeof setTimeout> | undefined;

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

  /** Takes over a panel VS Code restored after a reload (or one just created). */
  static restore(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    engine: EngineConnection,
    log: vscode.LogOutputChannel,
  ): TimelinePanel {
    TimelinePanel.current?.dispose();
    return new TimelinePanel(panel, extensionUri, engine, log);
  }

  private constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly engine: EngineConnection,
    private readonly log: vscode.LogOutputChannel,
  ) {
    TimelinePanel.current = this;
    panel.webview.options = webviewOptions(extensionUri);
    panel.webview.html = timelineHtml(panel.webview, extensionUri);
    panel.iconPath = vscode.Uri.joinPath(extensionUri, ...ENGRAM_ICON);
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((m: unknown) => void this.receive(m)),
      engine.onDidChangeMemories(() => this.dataChanged()),
      { dispose: () => clearTimeout(this.changeTimer) },
    );
  }

  /**
   * Memories changed: tell the webview once a burst of writes (a scan, an import) has settled, so
   * it reloads the data once rather than per write (a 10k load is a few hundred ms of engine time).
   */
  private dataChanged(): void {
    // A hidden panel has no page (retainContextWhenHidden is off): it asks for data when shown.
    if (!this.panel.visible) return;
    clearTimeout(this.changeTimer);
    this.changeTimer = setTimeout(
      () => void this.post({ type: 'timeline/data/DidChange' }),
      CHANGE_SETTLE_MS,
    );
  }

  /**
   * Centres and selects a memory; resolves when the webview reports it selected (undefined if it
   * does not within REVEAL_WAIT_MS, e.g. the memory is filtered out).
   */
  reveal(memoryId: string): Promise<RevealResult | undefined> {
    this.panel.reveal();
    this.pendingReveal = memoryId;
    const confirmed = this.waitForSelection(memoryId);
    if (this.ready) void this.post({ type: 'timeline/memory/DidReveal', memoryId });
    return confirmed;
  }

  private waitForSelection(memoryId: string): Promise<RevealResult | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        const i = this.selectionWaiters.indexOf(waiter);
        if (i >= 0) this.selectionWaiters.splice(i, 1);
        resolve(undefined);
      }, REVEAL_WAIT_MS);
      const waiter = (s: SelectionNotification) => {
        if (s.memoryId !== memoryId) return;
        clearTimeout(timer);
        this.selectionWaiters.splice(this.selectionWaiters.indexOf(waiter), 1);
        resolve({ memoryId, shown: s.shown });
      };
      this.selectionWaiters.push(waiter);
    });
  }

  private async receive(raw: unknown): Promise<void> {
    const message = parseWebviewMessage(raw);
    if (!message) {
      this.log.warn(`timeline: ignored an unexpected message ${summaryLine(JSON.stringify(raw) ?? '', 200)}`);
      return;
    }
    try {
      switch (message.type) {
        case 'timeline/view/ready':
          this.ready = true;
          if (this.pendingReveal)
            await this.post({ type: 'timeline/memory/DidReveal', memoryId: this.pendingReveal });
          return;
        case 'timeline/selection/changed':
          if (message.memoryId === this.pendingReveal) this.pendingReveal = undefined;
          for (const waiter of [...this.selectionWaiters]) waiter(message);
          return;
        case 'timeline/memory/open':
          await openMemoryBeside(this.engine, message.memoryId);
          return;
        case 'timeline/file/open':
          await openWorkspaceFile(message.path, message.line);
          return;
        case 'timeline/symbol/open':
          await openWorkspaceSymbol(message.name);
          return;
        case 'timeline/data/get':
          await this.post(await this.dataReply(message.id));
          return;
      }
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      this.log.error(`timeline: ${message.type}: ${text}`);
      void vscode.window.showErrorMessage(`Engram: ${summaryLine(text, 200)}`);
    }
  }

  /** Every data request gets exactly one reply: the data, or a one-line error. */
  private async dataReply(id: number): Promise<DataReply> {
    try {
      const data: TimelineData = await this.engine.call('timeline', {});
      return { type: 'timeline/data/reply', id, ok: true, data };
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      this.log.error(`timeline: loading failed: ${text}`);
      return { type: 'timeline/data/reply', id, ok: false, error: summaryLine(text, 300) };
    }
  }

  private async post(message: HostToWebview): Promise<void> {
    if (this.disposed) return;
    try {
      await this.panel.webview.postMessage(message);
    } catch (error) {
      this.log.warn(`timeline: could not post ${message.type}: ${String(error)}`);
    }
  }

  /** The open panel, if any (tests reach a restored panel through it). */
  static get active(): TimelinePanel | undefined {
    return TimelinePanel.current;
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
    // Hidden panels keep only their UI state (vscode.setState) and ask for the data again.
    retainContextWhenHidden: false,
    localResourceRoots: [webviewAssets(extensionUri)],
  };
}

/** The serializer that brings the panel back after a window reload. */
export function timelineSerializer(
  extensionUri: vscode.Uri,
  engine: EngineConnection,
  log: vscode.LogOutputChannel,
): vscode.WebviewPanelSerializer {
  return {
    deserializeWebviewPanel: (panel: vscode.WebviewPanel) => {
      TimelinePanel.restore(panel, extensionUri, engine, log);
      return Promise.resolve();
    },
  };
}

/** Open Timeline, Reveal in Timeline and the serializer. */
export function registerTimelinePanel(
  extensionUri: vscode.Uri,
  engine: EngineConnection,
  log: vscode.LogOutputChannel,
): vscode.Disposable[] {
  return [
    guardedCommand(
      'engram.openTimeline',
      log,
      () => TimelinePanel.show(extensionUri, engine, log).panel.viewType,
    ),
    guardedCommand('engram.revealInTimeline', log, async (arg) => {
      const id = await memoryIdFrom(arg, engine, 'Engram: memory to reveal in the timeline', [
        'active',
        'invalidated',
        'superseded',
      ]);
      return id && TimelinePanel.show(extensionUri, engine, log).reveal(id);
    }),
    vscode.window.registerWebviewPanelSerializer(
      TIMELINE_VIEW_TYPE,
      timelineSerializer(extensionUri, engine, log),
    ),
    { dispose: () => TimelinePanel.disposeCurrent() },
  ];
}
