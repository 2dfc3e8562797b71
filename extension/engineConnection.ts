import path from 'node:path';
import * as vscode from 'vscode';
import type {
  Engram,
  OpenEngramOptions,
  MethodName,
  MethodParams,
  MethodResult,
  Actor,
} from '../engine/index';
import type * as EngineBundle from './engineBundle';
import type { TeamRouter } from '../engine/index';

export type EngineState = 'idle' | 'starting' | 'ready' | 'failed' | 'closed';

/** What dist/extensionEngine.js (extension/engineBundle.ts) exports. */
export type EngineModule = typeof EngineBundle;

let engineModule: EngineModule | undefined;

/**
 * Loads the engine: the bundle beside this one (dist/extensionEngine.js), so that activation only
 * loads the small dist/extension.js; run from sources (tsx), the module itself. The specifier is
 * computed so that esbuild leaves the require alone rather than bundling the engine in here.
 */
export function loadEngineModule(): EngineModule {
  if (engineModule) return engineModule;
  const load = require as (id: string) => unknown;
  const bundled = path.basename(__filename) === 'extension.js';
  engineModule = load(path.join(__dirname, bundled ? 'extensionEngine.js' : 'engineBundle')) as EngineModule;
  return engineModule;
}

/** The window's team server, as the connection needs it (extension/teamServerLink.ts). */
export interface TeamRoute {
  /** Undefined while no URL or no token is set: every call stays local. */
  router(): Promise<TeamRouter | undefined>;
  /** A write went to the team server (answered, queued or refused). */
  noteWrite(): void;
  /** A read the server did not answer was answered from the replica of the team scope. */
  noteStaleRead(): void;
}

/** How long others' writes may keep coming before the views re-read. */
const WRITE_ELSEWHERE_DELAY_MS = 400;

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
  /** Bumped by every close: an open that a close overtook hands its engine to that close only. */
  private generation = 0;
  private elsewhereTimer: NodeJS.Timeout | undefined;
  /**
   * Fires after a write by this window (remember, pin, import, scan...) and, once a burst settles,
   * after writes by other processes to the same database: views refresh on it.
   */
  readonly onDidChangeMemories = this.changed.event;
  readonly onDidChangeState = this.stateChanged.event;

  /**
   * `team`: the window's team server route, if any (extension/teamServerLink.ts): the methods it
   * serves go there, the others (and reads it cannot answer) to the local engine.
   */
  constructor(
    private readonly options: (engine: EngineModule) => OpenEngramOptions,
    private readonly log: vscode.LogOutputChannel,
    private readonly team?: TeamRoute,
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

  /**
   * Starts opening the engine on a later tick, so activation itself returns at once; `after` (a
   * closing engine) is waited for first, so that callers arriving meanwhile wait for the new one.
   */
  start(after: Promise<unknown> = Promise.resolve()): void {
    if (this.opening) return;
    this.setState('starting');
    this.opening = after
      .catch(() => undefined)
      .then(() => new Promise<void>((resolve) => setTimeout(resolve, 0)))
      .then(() => this.open());
    // A failed open is reported through state and through every later call; nothing unhandled.
    this.opening.catch(() => undefined);
  }

  private async open(): Promise<Engram> {
    const started = Date.now();
    const generation = this.generation;
    try {
      const engine = loadEngineModule();
      const options = this.options(engine);
      this.log.info(`opening ${options.dbPath} (engine loaded in ${Date.now() - started} ms)`);
      const engram = await engine.Engram.open(options);
      // Closed (or restarted) while opening: closeEngine, which awaits this, closes it.
      if (generation !== this.generation) return engram;
      this.engram = engram;
      engram.onRoleChange((role) => this.log.info(`this window is now the database ${role}`));
      this.log.info(`engine ready as ${engram.role} in ${Date.now() - started} ms`);
      this.failure = undefined;
      this.setState('ready');
      this.changed.fire();
      return engram;
    } catch (error) {
      if (generation !== this.generation) throw error;
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

  async call<M extends MethodName>(
    method: M,
    params: MethodParams<M>,
    actor?: Actor,
  ): Promise<MethodResult<M>> {
    const withActor = { ...params, actor: { session: vscode.env.sessionId, ...actor } };
    const local = async () => (await this.ready()).call(method, withActor);
    const router = await this.team?.router();
    const write = loadEngineModule().METHODS[method].write;
    let result: MethodResult<M>;
    try {
      result = router ? ((await router.call(method, withActor, local)) as MethodResult<M>) : await local();
    } finally {
      // Sent, queued or refused: the team item shows what came of it.
      if (router?.serves(method) && write) this.team?.noteWrite();
    }
    if (router?.serves(method) && !write && router.staleNote()) this.team?.noteStaleRead();
    if (write || method === 'scan') this.changed.fire();
    return result;
  }

  /**
   * While the team server does not answer and reads come from the local replica of the team scope:
   * one line saying answers may be stale, for a host to show beside them.
   */
  async staleNote(): Promise<string | undefined> {
    return (await this.team?.router())?.staleNote();
  }

  /** After a change elsewhere (another process wrote): views re-read. */
  notifyChanged(): void {
    this.changed.fire();
  }

  /**
   * Another process (an MCP agent, the CLI, another window) wrote to the database: views re-read
   * once its burst of writes settles (an agent importing a thousand memories reloads them once).
   */
  noteWriteElsewhere(): void {
    if (this.elsewhereTimer) return;
    this.elsewhereTimer = setTimeout(() => {
      this.elsewhereTimer = undefined;
      this.changed.fire();
    }, WRITE_ELSEWHERE_DELAY_MS);
  }

  /**
   * Closes (flushing the journal and releasing the lock) and opens again with current settings.
   * A call made meanwhile waits for the new engine rather than opening one of its own.
   */
  async restart(): Promise<void> {
    const closing = this.closeEngine();
    this.start(closing);
    await closing;
  }

  /**
   * Flushes and releases the database: the journal is synced and the lock file removed. Calls
   * made meanwhile are refused rather than opening the engine again.
   */
  async close(): Promise<void> {
    this.setState('closed');
    await this.closeEngine();
  }

  private async closeEngine(): Promise<void> {
    const opening = this.opening;
    this.generation++;
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
    clearTimeout(this.elsewhereTimer);
    this.changed.dispose();
    this.stateChanged.dispose();
  }
}
