import * as vscode from 'vscode';
import type { EngineConnection } from '../engineConnection';
import type { MethodResult } from '../../engine/index';
import { AGENT_NAMES } from '../capture/capturePrompt';

type Session = MethodResult<'captureSessions'>[number];

export type SessionTreeNode =
  | { type: 'agent'; agent: string; sessions: Session[] }
  | { type: 'day'; agent: string; day: string; sessions: Session[] }
  | { type: 'session'; session: Session };

/** Sessions listed at most (the most recent): the view is for finding last week's, not an archive. */
const MAX_SESSIONS = 500;

/** The local day a session started (or ended), as YYYY-MM-DD. */
function dayOf(s: Session): string {
  const at = s.startedAt ?? s.endedAt;
  if (at === null) return 'undated';
  const d = new Date(at);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function groupBy<K>(list: Session[], key: (s: Session) => K): Map<K, Session[]> {
  const groups = new Map<K, Session[]>();
  for (const s of list) groups.set(key(s), [...(groups.get(key(s)) ?? []), s]);
  return groups;
}

/**
 * The Sessions view: captured agent sessions by agent, then by day (the most recent first); a
 * session opens its transcript (engram.openSessionTranscript). Re-read after each capture run.
 */
export class SessionTreeProvider implements vscode.TreeDataProvider<SessionTreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly engine: Pick<EngineConnection, 'call' | 'state'>) {}

  refresh(): void {
    this.changed.fire(undefined);
  }

  getTreeItem(node: SessionTreeNode): vscode.TreeItem {
    const collapsed = vscode.TreeItemCollapsibleState.Collapsed;
    if (node.type === 'agent') {
      const item = new vscode.TreeItem(AGENT_NAMES[node.agent] ?? node.agent, collapsed);
      item.id = `agent:${node.agent}`;
      item.description = `${node.sessions.length}`;
      return item;
    }
    if (node.type === 'day') {
      const item = new vscode.TreeItem(node.day, collapsed);
      item.id = `day:${node.agent}:${node.day}`;
      item.description = `${node.sessions.length}`;
      return item;
    }
    const s = node.session;
    const item = new vscode.TreeItem((s.title ?? s.id).replace(/\s+/g, ' ').slice(0, 120));
    item.id = `session:${s.id}`;
    const failed = s.failedCommands > 0 ? ` · ${s.failedCommands} failed` : '';
    item.description = `${s.turns} turns · ${s.filesChanged} files${failed}`;
    item.tooltip = `${s.id}${s.gitBranch ? ` on ${s.gitBranch}` : ''}${s.model ? ` (${s.model})` : ''}`;
    item.iconPath = new vscode.ThemeIcon(s.parentId ? 'type-hierarchy-sub' : 'comment-discussion');
    item.command = { command: 'engram.openSessionTranscript', title: 'Open Transcript', arguments: [s.id] };
    return item;
  }

  async getChildren(node?: SessionTreeNode): Promise<SessionTreeNode[]> {
    if (node?.type === 'session') return [];
    if (node?.type === 'day') return node.sessions.map((session) => ({ type: 'session', session }));
    if (node?.type === 'agent') {
      return [...groupBy(node.sessions, dayOf)].map(([day, sessions]) => ({
        type: 'day',
        agent: node.agent,
        day,
        sessions,
      }));
    }
    // Nothing yet (or untrusted, or the engine still opening): the welcome says how to start.
    if (!vscode.workspace.isTrusted || this.engine.state !== 'ready') return [];
    const sessions = await this.engine.call('captureSessions', { limit: MAX_SESSIONS });
    return [...groupBy(sessions, (s) => s.agent)].map(([agent, list]) => ({
      type: 'agent',
      agent,
      sessions: list,
    }));
  }

  dispose(): void {
    this.changed.dispose();
  }
}
