import * as vscode from 'vscode';
import type { EngineConnection } from '../engineConnection';
import type { MethodResult } from '../../engine/index';
import { AGENT_NAMES } from '../capture/capturePrompt';

type Session = MethodResult<'captureSessions'>[number];
type Detail = MethodResult<'captureSessionDetail'>;

export type SessionTreeNode =
  | { type: 'agent'; agent: string; sessions: Session[] }
  | { type: 'day'; agent: string; day: string; sessions: Session[] }
  | { type: 'session'; session: Session }
  | { type: 'commits'; session: string; commits: Detail['commits'] }
  | { type: 'files'; session: string; files: Detail['files'] }
  | { type: 'commands'; session: string; commands: Detail['commands'] }
  | { type: 'commit'; commit: Detail['commits'][number] }
  | { type: 'file'; file: Detail['files'][number] }
  | { type: 'command'; command: Detail['commands'][number] };

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
 * session opens its transcript (engram.openSessionTranscript) and unfolds into the commits that
 * carry its edits, the files it changed and the commands it ran (read when unfolded). Re-read
 * after each capture run.
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
    if (node.type !== 'session') return detailItem(node);
    const s = node.session;
    // Something to unfold only where it ran or changed anything: a chat alone is its transcript.
    const unfolds = s.toolCalls > 0 || s.filesChanged > 0;
    const item = new vscode.TreeItem(
      (s.title ?? s.id).replace(/\s+/g, ' ').slice(0, 120),
      unfolds ? collapsed : vscode.TreeItemCollapsibleState.None,
    );
    item.id = `session:${s.id}`;
    const failed = s.failedCommands > 0 ? ` · ${s.failedCommands} failed` : '';
    item.description = `${s.turns} turns · ${s.filesChanged} files${failed}`;
    item.tooltip = `${s.id}${s.gitBranch ? ` on ${s.gitBranch}` : ''}${s.model ? ` (${s.model})` : ''}`;
    item.iconPath = new vscode.ThemeIcon(s.parentId ? 'type-hierarchy-sub' : 'comment-discussion');
    item.command = { command: 'engram.openSessionTranscript', title: 'Open Transcript', arguments: [s.id] };
    return item;
  }

  async getChildren(node?: SessionTreeNode): Promise<SessionTreeNode[]> {
    if (node?.type === 'session') return this.detailGroups(node.session.id);
    if (node?.type === 'commits') return node.commits.map((commit) => ({ type: 'commit', commit }));
    if (node?.type === 'files') return node.files.map((file) => ({ type: 'file', file }));
    if (node?.type === 'commands') return node.commands.map((command) => ({ type: 'command', command }));
    if (node?.type === 'commit' || node?.type === 'file' || node?.type === 'command') return [];
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

  private async detailGroups(session: string): Promise<SessionTreeNode[]> {
    const d = await this.engine.call('captureSessionDetail', { session });
    const groups: SessionTreeNode[] = [];
    if (d.commits.length > 0) groups.push({ type: 'commits', session, commits: d.commits });
    if (d.files.length > 0) groups.push({ type: 'files', session, files: d.files });
    if (d.commands.length > 0) groups.push({ type: 'commands', session, commands: d.commands });
    return groups;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

type DetailNode = Exclude<SessionTreeNode, { type: 'agent' | 'day' | 'session' }>;

/** A session's commit, file or command, or the group that lists them. */
function detailItem(node: DetailNode): vscode.TreeItem {
  const collapsed = vscode.TreeItemCollapsibleState.Collapsed;
  switch (node.type) {
    case 'commits':
      return groupItem(`commits:${node.session}`, 'Commits', node.commits.length, 'git-commit', collapsed);
    case 'files':
      return groupItem(`files:${node.session}`, 'Files changed', node.files.length, 'files', collapsed);
    case 'commands': {
      const failed = node.commands.filter((c) => c.exitCode !== null && c.exitCode !== 0).length;
      const item = groupItem(
        `commands:${node.session}`,
        'Commands',
        node.commands.length,
        'terminal',
        collapsed,
      );
      if (failed > 0) item.description = `${node.commands.length} · ${failed} failed`;
      return item;
    }
    case 'commit': {
      const c = node.commit;
      const item = new vscode.TreeItem(c.subject.replace(/\s+/g, ' ').slice(0, 120));
      item.description = `${c.sha.slice(0, 7)} · ${c.lines} ${c.lines === 1 ? 'line' : 'lines'} of the session`;
      item.tooltip = `${c.sha}, ${new Date(c.committedAt).toLocaleString()}`;
      item.iconPath = new vscode.ThemeIcon('git-commit');
      return item;
    }
    case 'file': {
      const uri = fileUri(node.file.path);
      const item = new vscode.TreeItem(uri);
      item.description = `${vscode.workspace.asRelativePath(uri, false)} · ${node.file.action}`;
      item.command = { command: 'vscode.open', title: 'Open File', arguments: [uri] };
      return item;
    }
    case 'command': {
      const c = node.command;
      const item = new vscode.TreeItem(c.command.replace(/\s+/g, ' ').slice(0, 120));
      const failed = c.exitCode !== null && c.exitCode !== 0;
      item.description = c.exitCode === null ? '' : `exit ${c.exitCode}`;
      item.tooltip = c.command;
      item.iconPath = new vscode.ThemeIcon(failed ? 'error' : 'terminal');
      return item;
    }
  }
}

function groupItem(
  id: string,
  label: string,
  count: number,
  icon: string,
  state: vscode.TreeItemCollapsibleState,
): vscode.TreeItem {
  const item = new vscode.TreeItem(label, state);
  item.id = id;
  item.description = `${count}`;
  item.iconPath = new vscode.ThemeIcon(icon);
  return item;
}

/** An agent may name a file by its absolute path or by one relative to the workspace. */
function fileUri(file: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  return file.startsWith('/') || /^[A-Za-z]:[\\/]/.test(file) || folder === undefined
    ? vscode.Uri.file(file)
    : vscode.Uri.joinPath(folder, file);
}
