import * as vscode from 'vscode';
import type { EngineConnection } from './engineConnection';
import type { DriftState } from './driftState';
import { plural } from './memoryPresentation';
import type { ScanProgress } from '../engine/index';

/** How long a remember stays announced in the item. */
const ANNOUNCEMENT_MS = 15_000;

/**
 * One status-bar item: memory count, scan progress while a scan runs, the stale memories once drift
 * was checked (the Drift view's count).
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
  /** A short-lived line (what was just remembered), shown in this item instead of a toast. */
  private announcement: { text: string; tooltip: string; command: vscode.Command } | undefined;
  private announcementTimer: NodeJS.Timeout | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly engine: EngineConnection,
    private readonly drift: DriftState,
  ) {
    this.item.name = 'Engram';
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

  /**
   * Shows `text` in the item for a while (the next announcement replaces it, so nothing piles up);
   * a click runs `command` meanwhile, then the item is Engram's counts again.
   */
  announce(text: string, tooltip: string, command: vscode.Command): void {
    this.announcement = { text, tooltip, command };
    if (this.announcementTimer) clearTimeout(this.announcementTimer);
    this.announcementTimer = setTimeout(() => {
      this.announcement = undefined;
      this.render();
    }, ANNOUNCEMENT_MS);
    this.render();
  }

  get text(): string {
    return this.item.text;
  }

  /** What a click runs now. */
  get command(): vscode.Command | undefined {
    return typeof this.item.command === 'object' ? this.item.command : undefined;
  }

  /** What a screen reader says for the item (the text's icons read as words otherwise). */
  get accessibilityLabel(): string | undefined {
    return this.item.accessibilityInformation?.label;
  }

  private scheduleRefresh(): void {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => void this.refresh(), 300);
  }

  async refresh(): Promise<void> {
    if (this.engine.state !== 'ready') return;
    try {
      this.memories = (await this.engine.call('stats', {})).memories;
    } catch {
      this.memories = undefined;
    }
    this.render();
  }

  private render(): void {
    const state = this.engine.state;
    const parts: string[] = [];
    const spoken: string[] = [];
    if (state === 'starting' || state === 'idle') {
      parts.push('$(loading~spin) Engram');
      spoken.push('Engram is starting');
    } else if (state === 'failed') {
      parts.push('$(error) Engram');
      spoken.push('Engram could not start');
    } else {
      parts.push(`$(database) ${this.memories ?? '…'}`);
      spoken.push(
        `Engram: ${this.memories === undefined ? 'counting' : plural(this.memories, 'memory', 'memories')}`,
      );
    }
    if (this.scan) {
      parts.push(`$(sync~spin) ${this.scan.phase} ${this.scan.done}/${this.scan.total}`);
      spoken.push(`scanning, ${this.scan.done} of ${this.scan.total} files`);
    }
    // The Drift view's findings are the one source: the count shown is the count listed there,
    // and nothing is shown (no warning) while every checked memory holds.
    const stale = this.drift.last?.findings.length;
    if (stale !== undefined && stale > 0) {
      parts.push(`$(warning) ${stale} stale`);
      spoken.push(plural(stale, 'stale memory', 'stale memories'));
    }
    // First, so the counts and the stale warning keep their place at the end of the item.
    if (this.announcement) {
      parts.unshift(`$(check) ${this.announcement.text}`);
      spoken.unshift(this.announcement.text);
    }
    this.item.text = parts.join('  ');
    this.item.command = this.announcement?.command ?? 'engram.showViews';
    this.item.accessibilityInformation = { label: spoken.join(', '), role: 'button' };
    const tip = new vscode.MarkdownString();
    if (state === 'failed') {
      tip.appendText(`Engram could not start: ${this.engine.failureMessage ?? 'unknown error'}`);
    } else {
      tip.appendText(`Engram: ${this.memories ?? 'counting'} active memories. `);
      tip.appendText(
        stale === undefined
          ? 'Drift not checked yet.'
          : stale === 0
            ? 'Every checked memory matches the code.'
            : `${plural(stale, 'memory no longer matches', 'memories no longer match')} the code: see the Drift view.`,
      );
    }
    if (this.announcement) tip.appendText(`\n\n${this.announcement.tooltip} (click to open it)`);
    this.item.tooltip = tip;
    this.item.backgroundColor =
      state === 'failed' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
  }

  dispose(): void {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    if (this.announcementTimer) clearTimeout(this.announcementTimer);
    this.item.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
