import * as vscode from 'vscode';
import { ENGRAM_ICON } from '../packageAssets';
import { summaryLine } from '../../webview/shared/text';
import { webviewPage, webviewPanelOptions } from './webviewPage';
import type { WebviewPageContent } from './webviewPage';

/** What makes one single-panel webview (the Timeline, the Graph) itself; the host does the rest. */
export interface SinglePanelKind<Incoming> {
  viewType: string;
  /** The panel's tab title and the page's <title>. */
  title: string;
  /** Names the panel in the log: "graph: could not post ...". */
  scope: string;
  page: Omit<WebviewPageContent, 'title'>;
  /** The panel protocol's guard: the message, or undefined when it is not one the panel takes. */
  parse(raw: unknown): Incoming | undefined;
}

/**
 * The shared host of a webview shown in one panel at a time: created or revealed again when asked
 * twice, restored after a reload by its serializer, given its page (strict CSP with a fresh nonce,
 * see webviewPage.ts), options and icon, handed only messages that pass the protocol's guard, and
 * disposed once. Each panel keeps its own specifics: what it answers and what it tells the page.
 */
export abstract class SinglePanel<Incoming, Outgoing extends { type: string }> implements vscode.Disposable {
  /** The open panel of each view type. */
  private static readonly open = new Map<string, SinglePanel<unknown, { type: string }>>();
  protected readonly disposables: vscode.Disposable[] = [];
  private disposed = false;

  protected constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly kind: SinglePanelKind<Incoming>,
    protected readonly log: vscode.LogOutputChannel,
  ) {
    SinglePanel.open.set(kind.viewType, this);
    panel.webview.options = webviewPanelOptions(extensionUri);
    panel.webview.html = webviewPage(panel.webview, extensionUri, { title: kind.title, ...kind.page });
    panel.iconPath = vscode.Uri.joinPath(extensionUri, ...ENGRAM_ICON);
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((raw: unknown) => void this.dispatch(raw)),
    );
  }

  /** The open panel of `viewType`, if any. */
  static current(viewType: string): SinglePanel<unknown, { type: string }> | undefined {
    return SinglePanel.open.get(viewType);
  }

  /**
   * Reveals the open panel of `kind` (`existing` is then true) or creates one in the active column
   * and hands it to `create`.
   */
  protected static revealOrCreate<P extends SinglePanel<unknown, { type: string }>>(
    kind: Pick<SinglePanelKind<unknown>, 'viewType' | 'title'>,
    extensionUri: vscode.Uri,
    create: (panel: vscode.WebviewPanel) => P,
  ): { panel: P; existing: boolean } {
    const current = SinglePanel.open.get(kind.viewType) as P | undefined;
    if (current) {
      current.panel.reveal();
      return { panel: current, existing: true };
    }
    const panel = vscode.window.createWebviewPanel(
      kind.viewType,
      kind.title,
      vscode.ViewColumn.Active,
      webviewPanelOptions(extensionUri),
    );
    return { panel: create(panel), existing: false };
  }

  /** Disposes the open panel of `viewType`, if any. */
  static disposeOpen(viewType: string): void {
    SinglePanel.open.get(viewType)?.dispose();
  }

  /** A message that passed the guard. */
  protected abstract receive(message: Incoming): Promise<void>;

  /** A message that did not pass the guard; a panel whose requests need a reply answers here. */
  protected refuse(raw: unknown): Promise<void> {
    this.log.warn(`${this.kind.scope}: ignored an unexpected message ${rawSummary(raw)}`);
    return Promise.resolve();
  }

  /**
   * Posts `message` once a burst of memory writes (a scan, an import) has settled, `settleMs` after
   * the last, so the page reloads its data once rather than per write. A hidden panel has no page
   * (retainContextWhenHidden is off) and asks for its data when shown: nothing is posted to it.
   */
  protected postWhenChangesSettle(
    onChange: vscode.Event<unknown>,
    settleMs: number,
    message: Outgoing,
  ): void {
    let timer: ReturnType<typeof setTimeout> | undefined;
    this.disposables.push(
      onChange(() => {
        if (!this.panel.visible) return;
        clearTimeout(timer);
        timer = setTimeout(() => void this.post(message), settleMs);
      }),
      { dispose: () => clearTimeout(timer) },
    );
  }

  /** Posts to the page; a closed or failing panel is logged, never thrown at the caller. */
  protected async post(message: Outgoing): Promise<void> {
    if (this.disposed) return;
    try {
      await this.panel.webview.postMessage(message);
    } catch (error) {
      this.log.warn(`${this.kind.scope}: could not post ${message.type}: ${String(error)}`);
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (SinglePanel.open.get(this.kind.viewType) === this) SinglePanel.open.delete(this.kind.viewType);
    this.panel.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }

  private dispatch(raw: unknown): Promise<void> {
    const message = this.kind.parse(raw);
    return message === undefined ? this.refuse(raw) : this.receive(message);
  }
}

/** A refused message, shortened for the log. */
export function rawSummary(raw: unknown): string {
  return summaryLine(JSON.stringify(raw) ?? '', 200);
}

/**
 * The serializer that brings a panel back after a window reload: VS Code hands over a bare panel
 * of the view type; the panel open before (if any) is disposed and `restore` takes the new one,
 * which gets its page, CSP and options again (the page asks for its data again).
 */
export function singlePanelSerializer(
  viewType: string,
  restore: (panel: vscode.WebviewPanel) => void,
): vscode.WebviewPanelSerializer {
  return {
    deserializeWebviewPanel: (panel: vscode.WebviewPanel) => {
      SinglePanel.disposeOpen(viewType);
      restore(panel);
      return Promise.resolve();
    },
  };
}
