import { watch } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { EngineConnection } from '../engineConnection';
import type { MethodParams, MethodResult } from '../../engine/index';
import { nextTurn } from '../live/nextTurn';

/** Where the agents keep their sessions (agentStores, made in the engine bundle). */
export type CaptureStores = MethodParams<'captureSources'>;

/** What the last run read, for the status item. */
export interface CaptureRun {
  at: number;
  records: number;
  sessions: number;
}

export interface CaptureRunnerOptions {
  /** @default 2000 ms: an agent writes a turn as a burst of appends; one read follows it. */
  debounceMs?: number;
  /** A read at least this often, for sessions in folders no watcher covers yet. @default 3 min */
  everyMs?: number;
}

/**
 * Reads the agents' new session records while capture is on: at once when switched on, after the
 * watched session files change (debounced) and every few minutes. The read itself is the engine's
 * `captureRun` (incremental by byte offset; it commits in batches of 15 ms, so the host's thread
 * is never held for long); this class only decides when, and never runs two at once: changes
 * during a run ask for one more afterwards. It watches the folders of the files the last run read.
 */
export class CaptureRunner implements vscode.Disposable {
  private running: Promise<void> | undefined;
  private again = false;
  private debounce: NodeJS.Timeout | undefined;
  private interval: NodeJS.Timeout | undefined;
  private readonly watchers = new Map<string, vscode.Disposable>();
  private lastRun: CaptureRun | undefined;
  /** Whether the last run could not read some sessions' commits: said once, not every few minutes. */
  private linksUnread = false;
  private readonly ran = new vscode.EventEmitter<CaptureRun>();
  /** Fires after each finished run. */
  readonly onDidRun = this.ran.event;

  constructor(
    private readonly engine: Pick<EngineConnection, 'call'>,
    private readonly stores: () => CaptureStores,
    private readonly log: vscode.LogOutputChannel,
    private readonly options: CaptureRunnerOptions = {},
  ) {}

  get last(): CaptureRun | undefined {
    return this.lastRun;
  }

  /** The folders watched now (tests look). */
  get watched(): readonly string[] {
    return [...this.watchers.keys()];
  }

  get active(): boolean {
    return this.interval !== undefined;
  }

  /** Starts reading (capture was switched on, or found on): now, on changes and every few minutes. */
  start(): Promise<void> {
    if (!this.interval) {
      this.interval = setInterval(() => this.schedule(), this.options.everyMs ?? 3 * 60_000);
    }
    return this.run();
  }

  /** Stops reading: no timer, no watcher (capture was switched off). */
  stop(): void {
    clearInterval(this.interval);
    clearTimeout(this.debounce);
    this.interval = undefined;
    this.debounce = undefined;
    for (const w of this.watchers.values()) w.dispose();
    this.watchers.clear();
  }

  /** Asks for a read soon; changes within the debounce window become one read. */
  schedule(): void {
    if (!this.active) return;
    clearTimeout(this.debounce);
    this.debounce = setTimeout(() => {
      this.debounce = undefined;
      void this.run().catch((error: unknown) => this.log.warn(`capture failed: ${String(error)}`));
    }, this.options.debounceMs ?? 2000);
  }

  /** Reads now, or once more after the read already running. */
  run(): Promise<void> {
    this.again = true;
    this.running ??= this.runLoop();
    return this.running;
  }

  private async runLoop(): Promise<void> {
    try {
      while (this.again && this.active) {
        this.again = false;
        // ifEnabled: switched off elsewhere (the CLI) meanwhile, the engine reads nothing.
        const report = await this.engine.call('captureRun', { ...this.stores(), ifEnabled: true });
        this.noteRun(report);
        await nextTurn();
      }
    } finally {
      this.running = undefined;
    }
  }

  private noteRun(report: MethodResult<'captureRun'>): void {
    const records = report.sources.reduce((n, s) => n + s.records, 0);
    const sessions = new Set(report.sources.flatMap((s) => s.sessions)).size;
    this.lastRun = { at: Date.now(), records, sessions };
    if (records > 0) this.log.info(`capture: ${records} records of ${sessions} sessions`);
    if (report.linksUnread > 0 && !this.linksUnread) {
      this.log.warn(
        `capture: git could not read the commits of ${report.linksUnread} sessions; their commit links are kept as they were`,
      );
    }
    this.linksUnread = report.linksUnread > 0;
    this.watch(report.sources.map((s) => path.dirname(s.path)));
    this.ran.fire(this.lastRun);
  }

  /**
   * Watches each folder that holds a session file of this workspace (its files, not below). With
   * node's own watcher: the folders are outside the workspace, where the workbench's file watcher
   * reported no change of an appended session file (measured in captureHost.test.ts).
   */
  private watch(folders: readonly string[]): void {
    for (const folder of new Set(folders)) {
      if (this.watchers.has(folder) || !this.active) continue;
      try {
        const watcher = watch(folder, { persistent: false }, () => this.schedule());
        // A folder removed (a session store cleared) ends its watcher; the periodic read goes on.
        watcher.on('error', () => this.unwatch(folder));
        this.watchers.set(folder, { dispose: () => watcher.close() });
      } catch (error) {
        this.log.debug(`capture: cannot watch ${folder}: ${String(error)}`);
      }
    }
  }

  private unwatch(folder: string): void {
    this.watchers.get(folder)?.dispose();
    this.watchers.delete(folder);
  }

  dispose(): void {
    this.stop();
    this.ran.dispose();
  }
}
