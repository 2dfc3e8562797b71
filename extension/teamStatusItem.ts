import * as vscode from 'vscode';
import type { TeamStatus } from '../engine/index';
import { TOKEN_FIX } from './teamServerLink';
import type { TeamServerLink } from './teamServerLink';

/** How often the item asks the server (each check also sends what waits in the queue). */
const CHECK_EVERY_MS = 60_000;
/** Writes come in bursts (an import, an agent): one check after the burst. */
const AFTER_WRITES_MS = 1_000;

export type TeamItemState = TeamStatus['state'] | 'no token' | 'off';

/**
 * The team server's status-bar item, shown while `engram.team.url` is set: Team: connected /
 * offline (N queued) / offline, reads may be stale (N queued) (reads come from the replica of the
 * team scope) / token refused / no token, from teamStatus, checked on a timer, after writes
 * and when the URL or the token changes. A refused token is told once, in one message naming the
 * command that fixes it (not at every check).
 */
export class TeamStatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'engram.teamStatus',
    vscode.StatusBarAlignment.Left,
    9,
  );
  private readonly timer: NodeJS.Timeout;
  private afterWrites: NodeJS.Timeout | undefined;
  private readonly subscriptions: vscode.Disposable[];
  private current: TeamItemState = 'off';
  /** The URL and token whose refusal the user was told about. */
  private toldRefused: string | undefined;
  /** The refused-token messages shown so far (tests: one per URL and token, not one per check). */
  readonly refusalsTold: string[] = [];
  private checking: Promise<void> | undefined;

  constructor(
    private readonly link: TeamServerLink,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.item.name = 'Engram Team Server';
    this.subscriptions = [
      link.onDidChange(() => void this.refresh()),
      link.onDidWrite(() => this.refreshSoon()),
      link.onDidReadReplica(() => this.refreshSoon()),
    ];
    this.timer = setInterval(() => void this.refresh(), CHECK_EVERY_MS);
    // Not during activation: with a URL set, the check loads the engine's bundle.
    setTimeout(() => void this.refresh(), 0);
  }

  get state(): TeamItemState {
    return this.current;
  }

  get text(): string {
    return this.item.text;
  }

  private refreshSoon(): void {
    if (this.afterWrites) clearTimeout(this.afterWrites);
    this.afterWrites = setTimeout(() => void this.refresh(), AFTER_WRITES_MS);
  }

  /** One check at a time: a check asked for meanwhile waits for it, then runs. */
  async refresh(): Promise<void> {
    const previous = this.checking ?? Promise.resolve();
    const next = previous.then(() => this.check());
    this.checking = next;
    await next;
  }

  private async check(): Promise<void> {
    try {
      if (!this.link.url()) return this.show('off');
      const router = await this.link.router();
      if (!router)
        return this.show(
          'no token',
          'Team: no token',
          `No token for this team server (${TOKEN_FIX}); until then Engram uses the local database.`,
          'engram.setTeamToken',
        );
      const status = await router.status();
      const label =
        status.state === 'connected'
          ? 'Team: connected'
          : status.state === 'offline'
            ? `Team: offline${status.replicaAsOf ? ', reads may be stale' : ''} (${status.queued} queued)`
            : 'Team: token refused';
      this.show(
        status.state,
        label,
        status.message,
        status.state === 'unauthorized' ? 'engram.setTeamToken' : undefined,
      );
      if (status.state === 'unauthorized')
        this.tellRefused(router.target.url, router.target.token, status.message);
    } catch (error) {
      // A URL that is not one: the setting's one-line message, in the item and the log.
      const message = error instanceof Error ? error.message : String(error);
      this.log.warn(`team server: ${message}`);
      this.show('off', 'Team: bad URL', message, 'workbench.action.openSettings');
    }
  }

  private tellRefused(url: string, token: string, message: string): void {
    const key = `${url}\n${token}`;
    if (this.toldRefused === key) return;
    this.toldRefused = key;
    this.refusalsTold.push(message);
    this.log.warn(`team server: ${message}`);
    void vscode.window
      .showWarningMessage(`Engram: ${message}`, 'Set Team Server Token')
      .then((choice) => choice && vscode.commands.executeCommand('engram.setTeamToken'));
  }

  private show(state: TeamItemState, text = '', tooltip = '', command?: string): void {
    this.current = state;
    if (state === 'off' && text === '') {
      this.item.hide();
      return;
    }
    this.item.text = `$(organization) ${text}`;
    this.item.tooltip = tooltip;
    this.item.command = command;
    this.item.accessibilityInformation = { label: `Engram ${text}`, role: command ? 'button' : 'status' };
    // A refused token, or answers that may be stale (reads from the replica of the team scope).
    this.item.backgroundColor =
      state === 'unauthorized' || text.includes('stale')
        ? new vscode.ThemeColor('statusBarItem.warningBackground')
        : undefined;
    this.item.show();
  }

  dispose(): void {
    clearInterval(this.timer);
    if (this.afterWrites) clearTimeout(this.afterWrites);
    this.item.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
