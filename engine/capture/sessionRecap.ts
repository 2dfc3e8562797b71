import type { SqlReader } from '../store/sqlAccess';
import { linkedCommits } from './link/commitLinks';
import { oneLine as flat, summaryMemory } from './sessionFacts';
import { sessionSummary } from './sessionSummary';

const LAST_WORDS = 600;

/**
 * A past session in lines, for the `recap` prompt: when and where it ran, its summary (with the
 * memory id when there is one), the decisions stated in it, the commits that carry its edits,
 * and the agent's last words (how it ended).
 */
export function sessionRecap(r: SqlReader, id: string): string[] {
  const s = r.get<{
    agent: string;
    started_at: number | null;
    ended_at: number | null;
    git_branch: string | null;
  }>('SELECT agent, started_at, ended_at, git_branch FROM capture_sessions WHERE id = ?', [id]);
  if (!s) return [];
  const time = (ms: number | null) =>
    ms === null ? '?' : new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
  const lines = [
    `Session ${id} (${s.agent}, ${time(s.started_at)} to ${time(s.ended_at)}${s.git_branch ? `, branch ${s.git_branch}` : ''})`,
  ];
  const memory = summaryMemory(r, id);
  const summary = memory?.content ?? sessionSummary(r, id)?.content;
  if (summary) lines.push(`Summary${memory ? ` [${memory.id}]` : ''}: ${summary}`);
  const decisions = r.all<{ id: string; kind: string; content: string }>(
    `SELECT id, kind, content FROM memories WHERE session = ? AND superseded_at IS NULL AND status = 'active'
     AND tags LIKE '%"capture"%' AND kind != 'summary' ORDER BY recorded_at LIMIT 10`,
    [id],
  );
  if (decisions.length > 0)
    lines.push('Stated in it:', ...decisions.map((d) => `- [${d.id}] ${d.kind}: ${flat(d.content, 300)}`));
  const commits = linkedCommits(r, id);
  if (commits.length > 0)
    lines.push(
      'Commits that carry its edits:',
      ...commits.map((c) => `- ${c.sha.slice(0, 7)} ${flat(c.subject, 100)} (${c.lines} lines)`),
    );
  const last = r.value<string>(
    "SELECT text FROM capture_turns WHERE session_id = ? AND role = 'assistant' AND trim(text) != '' ORDER BY id DESC LIMIT 1",
    [id],
  );
  if (last !== undefined) lines.push(`The agent's last words: "${flat(last, LAST_WORDS)}"`);
  return lines;
}
