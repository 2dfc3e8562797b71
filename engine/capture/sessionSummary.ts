import type { MemoryStore } from '../memory/memoryStore';
import type { SqlReader } from '../store/sqlAccess';
import { linkedCommits } from './link/commitLinks';

import { oneLine, sessionGoal, summaryKey } from './sessionFacts';

export { summaryKey } from './sessionFacts';

const AGENT_NAMES: Record<string, string> = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
  aider: 'Aider',
  gemini: 'Gemini CLI',
  copilot: 'GitHub Copilot',
  cline: 'Cline',
  'roo-code': 'Roo Code',
  opencode: 'OpenCode',
};
const MAX_GOAL = 300;
const MAX_FILES = 10;
const MAX_COMMANDS = 5;
const MAX_COMMITS = 5;

interface SessionRow {
  id: string;
  agent: string;
  git_branch: string | null;
  parent_id: string | null;
  started_at: number | null;
}

/**
 * A session's summary, from its rows alone (no language model): the goal as the user first put
 * it, the files it changed, the commands that passed and those that failed last, the commits
 * that carry its edits. Undefined for a
 * sub-agent (its parent's summary covers it) or a session with none of these.
 */
export function sessionSummary(
  r: SqlReader,
  sessionId: string,
): { content: string; session: SessionRow } | undefined {
  const session = r.get<SessionRow>(
    'SELECT id, agent, git_branch, parent_id, started_at FROM capture_sessions WHERE id = ?',
    [sessionId],
  );
  if (!session || session.parent_id !== null) return undefined;
  const goal = sessionGoal(r, sessionId);
  const files = r
    .all<{ path: string }>(
      `SELECT path FROM capture_file_touches WHERE session_id = ? AND action != 'read'
       GROUP BY path ORDER BY min(id)`,
      [sessionId],
    )
    .map((f) => f.path);
  // A command's outcome is its last run's. Grouped once, not a subquery per row: that compared
  // every command with every other (190 ms for a 1,000-command session, in one transaction).
  const commands = r.all<{ command: string; exit_code: number | null }>(
    `SELECT command, exit_code FROM capture_commands
     WHERE id IN (SELECT max(id) FROM capture_commands WHERE session_id = ? GROUP BY command)
     ORDER BY id`,
    [sessionId],
  );
  const passed = commands.filter((c) => c.exit_code === 0).map((c) => `\`${oneLine(c.command, 80)}\``);
  const failed = commands
    .filter((c) => c.exit_code !== null && c.exit_code !== 0)
    .map((c) => `\`${oneLine(c.command, 80)}\` (exit ${c.exit_code})`);
  if (goal === undefined && files.length === 0 && commands.length === 0) return undefined;
  const day =
    session.started_at === null ? '' : ` on ${new Date(session.started_at).toISOString().slice(0, 10)}`;
  const branch = session.git_branch ? ` (branch ${session.git_branch})` : '';
  const parts = [`${AGENT_NAMES[session.agent] ?? session.agent} session${day}${branch}`];
  if (goal !== undefined) parts[0] += `: "${oneLine(goal, MAX_GOAL)}"`;
  if (files.length > 0) parts.push(`Files changed: ${listed(files, MAX_FILES)}`);
  if (passed.length > 0) parts.push(`Commands that passed: ${listed(passed, MAX_COMMANDS)}`);
  if (failed.length > 0) parts.push(`Commands that failed: ${listed(failed, MAX_COMMANDS)}`);
  const commits = linkedCommits(r, sessionId).map((c) => `${c.sha.slice(0, 7)} "${oneLine(c.subject, 60)}"`);
  if (commits.length > 0) parts.push(`Commits: ${listed(commits, MAX_COMMITS)}`);
  return { content: `${parts.join('. ')}.`, session };
}

/**
 * Writes (or, when the session grew, supersedes) each session's summary memory through the normal
 * remember path: episodic, kind summary, trust `ingest` (below what people and agents write), the
 * session as its provenance, valid from when the session started. Returns how many were written.
 * Yields after each, so that many sessions never hold a host's thread.
 */
export async function writeSessionSummaries(
  store: MemoryStore,
  sessionIds: readonly string[],
): Promise<number> {
  let written = 0;
  for (const id of sessionIds) {
    const summary = store.read((r) => sessionSummary(r, id));
    if (!summary) continue;
    const current = store.read((r) =>
      r.value<string>(
        'SELECT content FROM memories WHERE conflict_key = ? AND superseded_at IS NULL AND status = ?',
        [summaryKey(id), 'active'],
      ),
    );
    if (current === summary.content) continue;
    const agent = summary.session.agent;
    store.remember(
      {
        content: summary.content,
        layer: 'episodic',
        kind: 'summary',
        tags: ['capture', agent],
        importance: 0.4,
        conflictKey: summaryKey(id),
        source: { conversation: id },
        session: id,
        agent,
        trust: 'ingest',
        ...(summary.session.started_at === null ? {} : { validFrom: summary.session.started_at }),
        dedupe: false,
      },
      { agent, session: id, trust: 'ingest' },
    );
    written++;
    // One remember per session: let the host's other work in between.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return written;
}

function listed(items: string[], max: number): string {
  return items.length > max
    ? `${items.slice(0, max).join(', ')} and ${items.length - max} more`
    : items.join(', ');
}
