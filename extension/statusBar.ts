import * as vscode from 'vscode';
import type { EngineConnection } from './engineConnection';
import type { DriftState } from './driftState';
import type { ScanProgress } from '../engine/code/scanProtocol';

/**
 * One status-bar item: memory count, scan progress while a scan runs, the drift score once checked.
 * Clicking opens the Memories view. Counts are re-read after writes, debounced.
 */
export class EngramStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'engram.status',
    vscode.StatusBarAlignment.Left,
    10,
  );
  private memories: number | undefined;
  private scan: ScanProgress | undefined;
  private refreshTimer: NodeJS.Timeout | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly engine: EngineConnection,
    private readonly drift: DriftState,
  ) {
    this.item.name = 'Engram';
    this.item.command = 'engram.showViews';
    this.subscriptions.push(
      engine.onDidChangeState(() => this.render()),
      engine.onDidChangeMemories(() => this.scheduleRefresh()),
      drift.onDidChange(() => this.render()),
    );
    this.render();
    this.item.show();
  }

  /** Scan progress arrives per batch of files; the item shows the fraction. */
  showScanProgress(progress: ScanProgress | undefined): void {
    this.scan = progress && progress.done < progress.total ? progress : undefined;
    this.render();
  }

  get text(): string {
    return this.item.text;
  }

  private scheduleRefresh(): void {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => void this.refresh(), 300);
  }

  async refresh(): Promise<void> {
    if (this.engine.state !== 'ready') return;
    try {
      this.memories = (await this.engine.call('stats')).memories;
    } catch {
      this.memories = undefined;
    }
    this.render();
  }

  private render(): void {
    const state = this.engine.state;
    const parts: string[] = [];
    if (state === 'starting' || state === 'idle') parts.push('$(loading~spin) Engram');
    else if (state === 'failed') parts.push('$(error) Engram');
    else parts.push(`$(database) ${this.memories ?? '…'}`);
    if (this.scan) parts.push(`$(sync~spin) ${this.scan.phase} ${this.scan.done}/${this.scan.total}`);
    const score = this.drift.last?.score;
    if (score !== undefined) parts.push(`$(warning) drift ${Math.round(score)}`);
    this.item.text = parts.join('  ');
    const tip = new vscode.MarkdownString();
    tip.appendText(
      state === 'failed'
        ? `Engram could not start: ${this.engine.failureMessage ?? 'unknown error'}`
        : `Engram: ${this.memories ?? 'counting'} active memories${this.engine.role ? ` (this window is the ${this.engine.role})` : ''}`,
    );
    this.item.tooltip = tip;
    this.item.backgroundColor =
      state === 'failed' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
  }

  dispose(): void {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.item.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
