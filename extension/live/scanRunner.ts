import * as vscode from 'vscode';
import type { EngineConnection } from '../engineConnection';
import type { ScanResult } from '../../engine/code/codeWorkspace';
import type { ScanProgress } from '../../engine/code/scanProtocol';

/**
 * Runs the incremental scan: on demand (with a notification), or debounced after file and branch
 * changes (quietly, progress in the status bar). The scan itself parses in the engine's worker
 * thread; this class only decides when, and never runs two at once: a change during a scan asks
 * for one more scan afterwards.
 */
export class ScanRunner implements vscode.Disposable {
  private running: Promise<ScanResult | undefined> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly progress = new vscode.EventEmitter<ScanProgress | undefined>();
  private readonly finished = new vscode.EventEmitter<ScanResult>();
  readonly onDidProgress = this.progress.event;
  readonly onDidFinish = this.finished.event;

  constructor(
    private readonly engine: EngineConnection,
    private readonly log: vscode.LogOutputChannel,
    /** @default 1500 ms: a save storm (format on save, git checkout) becomes one scan. */
    private readonly debounceMs = 1500,
  ) {}

  /** Called by the engine's scan progress hook (this window hosts the database). */
  reportProgress(p: ScanProgress): void {
    this.progress.fire(p);
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Asks for a scan soon; repeated requests within the debounce window collapse into one. */
  schedule(reason: string): void {
    if (!vscode.workspace.isTrusted) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.log.debug(`scan after ${reason}`);
      void this.scan().catch((error: unknown) => this.log.warn(`background scan failed: ${String(error)}`));
    }, this.debounceMs);
  }

  /** Scans now, or after the scan already running (then once more, to include the latest changes). */
  async scan(): Promise<ScanResult | undefined> {
    if (!vscode.workspace.isTrusted)
      throw new Error('scanning reads workspace files: trust this workspace first');
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.runScans();
    try {
      return await this.running;
    } finally {
      this.running = undefined;
    }
  }

  private async runScans(): Promise<ScanResult | undefined> {
    let result: ScanResult | undefined;
    do {
      this.again = false;
      result = await this.engine.call('scan');
      const c = result.changes;
      this.log.info(
        `scan: ${result.files} files, ${c.added.length} added, ${c.changed.length} changed, ${c.deleted.length} deleted in ${result.millis} ms`,
      );
      this.progress.fire(undefined);
      this.finished.fire(result);
    } while (this.again);
    return result;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.progress.dispose();
    this.finished.dispose();
  }
}
