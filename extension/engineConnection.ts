import * as vscode from 'vscode';
import { Engram } from '../engine/engram';
import type { OpenEngramOptions } from '../engine/engram';
import { METHODS, isMethodName } from '../engine/api/methods';
import type { MethodName, MethodResult } from '../engine/api/methods';
import type { Params } from '../engine/api/params';
import type { Actor } from '../engine/memory/types';

export type EngineState = 'idle' | 'starting' | 'ready' | 'failed' | 'closed';

/**
 * The window's one handle on the engine. Activation only creates it; `start` opens the database in
 * the background (this window becomes the host of the workspace database, or a client of an MCP
 * bridge already hosting it). Callers never wait for activation: `call` waits for the engine and
 * shows progress in the status bar while it warms.
 */
export class EngineConnection implements vscode.Disposable {
  private opening: Promise<Engram> | undefined;
  private engram: Engram | undefined;
  private failure: string | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly stateChanged = new vscode.EventEmitter<EngineState>();
  private currentState: EngineState = 'idle';
  /** Fires after a write by this window (remember, pin, import, scan...): views refresh on it. */
  readonly onDidChangeMemories = this.changed.event;
  readonly onDidChangeState = this.stateChanged.event;

  constructor(
    private readonly options: () => OpenEngramOptions,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  get state(): EngineState {
    return this.currentState;
  }

  get failureMessage(): string | undefined {
    return this.failure;
  }

  get role(): 'host' | 'client' | undefined {
    return this.engram?.role;
  }

  /** Starts opening the engine on a later tick, so activation itself returns at once. */
  start(): void {
    if (this.opening) return;
    this.setState('starting');
    this.opening = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => this.open());
    // A failed open is reported through state and through every later call; nothing unhandled.
    this.opening.catch(() => undefined);
  }

  private async open(): Promise<Engram> {
    const started = Date.now();
    try {
      const options = this.options();
      this.log.info(`opening ${options.dbPath}`);
      const engram = await Engram.open(options);
      this.engram = engram;
      engram.onRoleChange((role) => this.log.info(`this window is now the database ${role}`));
      this.log.info(`engine ready as ${engram.role} in ${Date.now() - started} ms`);
      this.failure = undefined;
      this.setState('ready');
      this.changed.fire();
      return engram;
    } catch (error) {
      this.failure = error instanceof Error ? error.message : String(error);
      this.log.error(`the engine could not start: ${this.failure}`);
      this.setState('failed');
      throw error;
    }
  }

  /** The engine, waiting (with a status-bar progress) while it starts. */
  async ready(): Promise<Engram> {
    if (this.engram && this.currentState === 'ready') return this.engram;
    if (this.currentState === 'closed') throw new Error('Engram is shutting down');
    if (this.currentState === 'failed' || !this.opening) {
      this.opening = undefined;
      this.start();
    }
    const opening = this.opening as Promise<Engram>;
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'Engram: starting the memory engine' },
      () => opening,
    );
  }

  async call<M extends MethodName>(method: M, params: Params = {}, actor?: Actor): Promise<MethodResult<M>> {
    const engram = await this.ready();
    const result = await engram.call(method, {
      ...params,
      actor: { session: vscode.env.sessionId, ...actor },
    });
    if (METHODS[method].write || method === 'scan') this.changed.fire();
    return result;
  }

  /**
   * Calls a method this version of the engine may not have yet (drift arrives in its own issue):
   * resolves to `undefined` when the engine does not know the method, so callers can say so.
   */
  async callIfAvailable(method: string, params: Params = {}, actor?: Actor): Promise<unknown> {
    if (!isMethodName(method)) return undefined;
    return this.call(method, params, actor);
  }

  /** After a change elsewhere (another process wrote): views re-read. */
  notifyChanged(): void {
    this.changed.fire();
  }

  /** Closes (flushing the journal and releasing the lock) and opens again with current settings. */
  async restart(): Promise<void> {
    await this.closeEngine();
    this.opening = undefined;
    this.start();
  }

  /** Flushes and releases the database: the journal is synced and the lock file removed. */
  async close(): Promise<void> {
    await this.closeEngine();
    this.setState('closed');
  }

  private async closeEngine(): Promise<void> {
    const opening = this.opening;
    this.opening = undefined;
    this.engram = undefined;
    const engram = await opening?.catch(() => undefined);
    await engram?.close();
  }

  private setState(state: EngineState): void {
    this.currentState = state;
    this.stateChanged.fire(state);
  }

  dispose(): void {
    this.changed.dispose();
    this.stateChanged.dispose();
  }
}
