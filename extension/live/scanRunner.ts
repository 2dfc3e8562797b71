import * as vscode from 'vscode';
import type { EngineConnection } from '../engineConnection';
import type { MethodResult, ScanProgress } from '../../engine/index';
import { nextTurn } from './nextTurn';

/** A scan's result, with the drift of the memories naming what it changed. */
export type ScanResult = MethodResult<'scan'>;

/** More changed paths than this in one batch (a checkout, a generator) rescan the whole workspace. */
export const MAX_TARGETED_PATHS = 500;

/** What the next scan covers: the whole workspace, or just these workspace-relative paths. */
type ScanTarget = { full: true } | { full: false; paths: Set<string> };

const FULL: ScanTarget = { full: true };

function merge(a: ScanTarget | undefined, b: ScanTarget): ScanTarget {
  if (a?.full || b.full) return FULL;
  const paths = new Set([...(a?.paths ?? []), ...b.paths]);
  return paths.size > MAX_TARGETED_PATHS ? FULL : { full: false, paths };
}

/**
 * Runs the incremental scan: on demand (with a notification), or debounced after file and branch
 * changes (quietly, progress in the status bar). File events name their paths: the debounced scan
 * rescans just those (deduplicated), without walking the workspace; a branch switch or pull, a
 * path outside the workspace or a batch of more than MAX_TARGETED_PATHS rescans everything. The
 * scan itself parses in the engine's worker thread; this class only decides when and what, and
 * never runs two at once: changes during a scan ask for one more scan afterwards.
 */
export class ScanRunner implements vscode.Disposable {
  private running: Promise<ScanResult | undefined> | undefined;
  /** What the debounce timer will scan. */
  private scheduled: ScanTarget | undefined;
  /** What the running scan loop scans next (asked for while a scan ran). */
  private queued: ScanTarget | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastTarget: readonly string[] | 'all' | undefined;
  private readonly progress = new vscode.EventEmitter<ScanProgress | undefined>();
  private readonly finished = new vscode.EventEmitter<ScanResult>();
  readonly onDidProgress = this.progress.event;
  readonly onDidFinish = this.finished.event;

  constructor(
    private readonly engine: Pick<EngineConnection, 'call'>,
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

  /** What the last finished scan covered: the paths of a targeted rescan, or 'all'. */
  get lastScanned(): readonly string[] | 'all' | undefined {
    return this.lastTarget;
  }

  /**
   * Asks for a scan soon; requests within the debounce window collapse into one. With `paths`
   * (workspace-relative) only those are rescanned, together with the paths of the other requests
   * in the window; without, the whole workspace.
   */
  schedule(reason: string, paths?: readonly string[]): void {
    if (!vscode.workspace.isTrusted) return;
    this.scheduled = merge(this.scheduled, paths ? { full: false, paths: new Set(paths) } : FULL);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const target = this.scheduled ?? FULL;
      this.scheduled = undefined;
      this.log.debug(`scan after ${reason}${target.full ? '' : ` (${target.paths.size} paths)`}`);
      void this.run(target).catch((error: unknown) =>
        this.log.warn(`background scan failed: ${String(error)}`),
      );
    }, this.debounceMs);
  }

  /**
   * Scans the whole workspace now, or after the scan already running (then once more, to include
   * the latest changes).
   */
  scan(): Promise<ScanResult | undefined> {
    return this.run(FULL);
  }

  private run(target: ScanTarget): Promise<ScanResult | undefined> {
    if (!vscode.workspace.isTrusted)
      return Promise.reject(new Error('scanning reads workspace files: trust this workspace first'));
    this.queued = merge(this.queued, target);
    this.running ??= this.runScans();
    return this.running;
  }

  /**
   * Scans until nothing is queued. `running` is cleared in the same synchronous step as the last
   * look at the queue, so a request can never be queued behind a loop that has already ended.
   */
  private async runScans(): Promise<ScanResult | undefined> {
    try {
      let result: ScanResult | undefined;
      while (this.queued) {
        const target = this.queued;
        this.queued = undefined;
        try {
          result = await this.engine.call('scan', target.full ? {} : { paths: [...target.paths] });
        } catch (error) {
          // What was asked for after this scan started still runs, whatever happened to this one.
          if (!this.queued) throw error;
          this.log.warn(`scan failed: ${String(error)}`);
          continue;
        }
        this.lastTarget = target.full ? 'all' : [...target.paths];
        const c = result.changes;
        this.log.info(
          `scan${target.full ? '' : ` of ${target.paths.size} paths`}: ${result.files} files, ${c.added.length} added, ${c.changed.length} changed, ${c.deleted.length} deleted in ${result.millis} ms`,
        );
        // The scan's last transaction ran on this turn: the listeners (its drift into the views,
        // refreshes) start on the next one, and the next scan on the one after.
        await nextTurn();
        this.progress.fire(undefined);
        this.finished.fire(result);
        if (this.queued) await nextTurn();
      }
      return result;
    } finally {
      this.running = undefined;
    }
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.progress.dispose();
    this.finished.dispose();
  }
}
