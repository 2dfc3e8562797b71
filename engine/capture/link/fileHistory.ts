import type { SqlReader } from '../../store/sqlAccess';
import { oneLine, sessionGoal } from '../sessionFacts';
import { sessionAddedLines } from './sessionEdits';

const MAX_SESSIONS = 50;

export interface FileHistoryEntry {
  sessionId: string;
  agent: string;
  startedAt: number | null;
  branch: string | null;
  /** What the user first asked, cut to a line. */
  goal: string | null;
  /** What the session did to the file: read, edit, create, delete (each once, in order). */
  actions: string[];
  /** The significant lines it added to the file. */
  addedLines: number;
  /** The commits that carry those lines. */
  commits: Array<{ sha: string; subject: string; lines: number; committedAt: number }>;
}

/** What every captured session did to a workspace file, the most recent first, and which commits carried it. */
export function fileHistory(r: SqlReader, file: string): FileHistoryEntry[] {
  const sessions = r.all<{ id: string; agent: string; startedAt: number | null; branch: string | null }>(
    `SELECT s.id, s.agent, s.started_at AS startedAt, s.git_branch AS branch FROM capture_sessions s
     WHERE EXISTS (SELECT 1 FROM capture_file_touches f WHERE f.session_id = s.id AND f.path = ?)
     ORDER BY coalesce(s.started_at, 0) DESC, s.id LIMIT ?`,
    [file, MAX_SESSIONS],
  );
  return sessions.map((s) => {
    const goal = sessionGoal(r, s.id);
    return {
      sessionId: s.id,
      agent: s.agent,
      startedAt: s.startedAt,
      branch: s.branch,
      goal: goal === undefined ? null : oneLine(goal, 200),
      actions: r
        .all<{ action: string }>(
          'SELECT action FROM capture_file_touches WHERE session_id = ? AND path = ? GROUP BY action ORDER BY min(id)',
          [s.id, file],
        )
        .map((a) => a.action),
      addedLines: sessionAddedLines(r, s.id).get(file)?.size ?? 0,
      commits: r.all(
        `SELECT commit_sha AS sha, subject, lines, committed_at AS committedAt FROM capture_commit_links
       WHERE session_id = ? AND path = ? ORDER BY committed_at, commit_sha`,
        [s.id, file],
      ),
    };
  });
}
