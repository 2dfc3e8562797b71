import * as vscode from 'vscode';
import type { ReplicaAccess, TeamRouter } from '../engine/index';
import { databasePath } from './databasePath';
import { loadEngineModule } from './engineConnection';
import type { EngineModule, TeamRoute } from './engineConnection';
import { readSettings } from './settings';
import { workspaceRoot } from './workspaceRoot';

/** What a refused token's message tells the user to do (the command that fixes it). */
export const TOKEN_FIX = 'run "Engram: Set Team Server Token"';

/**
 * The token is kept per URL: a workspace that points `engram.team.url` at another server gets no
 * token to send there until the user sets one for it.
 */
function secretKey(url: string): string {
  return `engram.team.token ${url}`;
}

/**
 * The window's team server: `engram.team.url` from the settings and its token from SecretStorage
 * (never in settings, where a synced or committed file would carry it). `router()` is undefined
 * while no URL is set, or no token for it: then every call stays on the local database. Reads the
 * server does not answer come from the replica of the team scope beside the window's database
 * (`team-replica/`, as the CLI's), held by a worker thread (`replicaThread`) while it is used.
 */
export class TeamServerLink implements TeamRoute, vscode.Disposable {
  private cached: { key: string; router: TeamRouter } | undefined;
  /** The token last read for a URL: every engine call asks, and SecretStorage is a round trip. */
  private token: { url: string; value: string | undefined } | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[];
  private readonly wrote = new vscode.EventEmitter<void>();
  private readonly readStale = new vscode.EventEmitter<void>();
  /** The URL, the token or the database (where the queue is) changed. */
  readonly onDidChange = this.changed.event;
  /** A write went to the team server (answered, queued or refused). */
  readonly onDidWrite = this.wrote.event;
  /** A read the server did not answer came from the replica of the team scope. */
  readonly onDidReadReplica = this.readStale.event;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly replicaAt: (engine: EngineModule, directory: string) => ReplicaAccess,
  ) {
    this.subscriptions = [
      this.changed,
      this.wrote,
      this.readStale,
      secrets.onDidChange((e) => {
        if (!e.key.startsWith('engram.team.token')) return;
        this.token = undefined;
        this.changed.fire();
      }),
      vscode.workspace.onDidChangeConfiguration(
        (e) =>
          (e.affectsConfiguration('engram.team.url') || e.affectsConfiguration('engram.database.location')) &&
          this.changed.fire(),
      ),
    ];
  }

  /** The configured URL, checked (one line naming the setting if it is not an http(s) URL); undefined if unset. */
  url(): string | undefined {
    const value = readSettings().teamUrl;
    return value === '' ? undefined : loadEngineModule().parseTeamUrl(value, 'engram.team.url');
  }

  async setToken(token: string): Promise<string> {
    const url = this.requireUrl();
    await this.secrets.store(secretKey(url), token);
    // Ours: known now, before SecretStorage's change event comes round.
    this.token = { url, value: token };
    return url;
  }

  async clearToken(): Promise<string> {
    const url = this.requireUrl();
    await this.secrets.delete(secretKey(url));
    this.token = { url, value: undefined };
    return url;
  }

  /** The route to the server, or undefined (no URL, or no token for it): calls stay local. */
  async router(): Promise<TeamRouter | undefined> {
    const url = this.url();
    if (url === undefined) return undefined;
    if (this.token?.url !== url) this.token = { url, value: await this.secrets.get(secretKey(url)) };
    const token = this.token.value;
    if (!token) return undefined;
    // Beside the database, as the CLI's: `engram team flush` sends what this window queued.
    const engine = loadEngineModule();
    const db = databasePath(readSettings(), workspaceRoot());
    const queue = engine.queueDirectory(db);
    const key = JSON.stringify([url, token, queue]);
    if (this.cached?.key !== key) {
      // The previous route's replica (another URL, token or database) is closed, its worker ended.
      void this.cached?.router.dispose();
      const replica = this.replicaAt(engine, engine.replicaDirectory(db));
      this.cached = { key, router: new engine.TeamRouter({ url, token }, queue, TOKEN_FIX, replica) };
    }
    return this.cached.router;
  }

  noteWrite(): void {
    this.wrote.fire();
  }

  noteStaleRead(): void {
    this.readStale.fire();
  }

  /** The configured URL, or one line saying to set it. */
  requireUrl(): string {
    const url = this.url();
    if (url === undefined) throw new Error('set engram.team.url (Settings: Engram: Team Server) first');
    return url;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    void this.cached?.router.dispose();
    this.cached = undefined;
  }
}
