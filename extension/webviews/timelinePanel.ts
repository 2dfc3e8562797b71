import * as vscode from 'vscode';
import type { EngineConnection } from '../engineConnection';
import { guardedCommand } from '../commands/guardedCommand';
import { memoryIdFrom } from '../commands/memoryArgument';
import { TIMELINE_VIEW_TYPE, parseWebviewMessage } from '../../webview/timeline/protocol';
import type {
  DataReply,
  HostToWebview,
  SelectionNotification,
  TimelineData,
  WebviewToHost,
} from '../../webview/timeline/protocol';
import { TIMELINE_BODY, TIMELINE_CSS } from '../../webview/timeline/page';
import { summaryLine } from '../../webview/shared/text';
import { openMemoryBeside } from './openEntity';
import { SinglePanel, singlePanelSerializer } from './singlePanel';
import type { SinglePanelKind } from './singlePanel';
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

const TIMELINE_PANEL: SinglePanelKind<WebviewToHost> = {
  viewType: TIMELINE_VIEW_TYPE,
  title: 'Engram Timeline',
  scope: 'timeline',
  page: { css: TIMELINE_CSS, body: TIMELINE_BODY, script: 'timeline.js' },
  parse: parseWebviewMessage,
};

/**
 * The Timeline panel (one at a time, see SinglePanel). The webview asks for data and asks again
 * when memories change; the host only loads from the engine and opens what the user clicked.
 */
export class TimelinePanel extends SinglePanel<WebviewToHost, HostToWebview> {
  private ready = false;
  private pendingReveal: string | undefined;
  private readonly selectionWaiters: Array<(s: SelectionNotification) => void> = [];

  static show(
    extensionUri: vscode.Uri,
    engine: EngineConnection,
    log: vscode.LogOutputChannel,
  ): TimelinePanel {
    return SinglePanel.revealOrCreate(
      TIMELINE_PANEL,
      extensionUri,
      (panel) => new TimelinePanel(panel, extensionUri, engine, log),
    ).panel;
  }

  private constructor(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly engine: EngineConnection,
    log: vscode.LogOutputChannel,
  ) {
    super(panel, extensionUri, TIMELINE_PANEL, log);
    // Once per burst of writes: a 10k load is a few hundred ms of engine time.
    this.postWhenChangesSettle(engine.onDidChangeMemories, CHANGE_SETTLE_MS, {
      type: 'timeline/data/DidChange',
    });
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

  protected async receive(message: WebviewToHost): Promise<void> {
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
        case 'timeline/session/open':
          // The Sessions view's command, beside the panel so the timeline stays in sight.
          await vscode.commands.executeCommand('engram.openSessionTranscript', message.sessionId, {
            beside: true,
          });
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

  /** The open panel, if any (tests reach a restored panel through it). */
  static get active(): TimelinePanel | undefined {
    return SinglePanel.current(TIMELINE_VIEW_TYPE) as TimelinePanel | undefined;
  }

  static disposeCurrent(): void {
    SinglePanel.disposeOpen(TIMELINE_VIEW_TYPE);
  }

  /** Takes over a panel VS Code restored after a reload. */
  static restore(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    engine: EngineConnection,
    log: vscode.LogOutputChannel,
  ): void {
    new TimelinePanel(panel, extensionUri, engine, log);
  }
}

/** The serializer that brings the panel back after a window reload. */
export function timelineSerializer(
  extensionUri: vscode.Uri,
  engine: EngineConnection,
  log: vscode.LogOutputChannel,
): vscode.WebviewPanelSerializer {
  return singlePanelSerializer(TIMELINE_VIEW_TYPE, (panel) =>
    TimelinePanel.restore(panel, extensionUri, engine, log),
  );
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
