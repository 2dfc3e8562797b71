import type { SqlReader } from '../store/sqlAccess';

export interface CapturedSession {
  id: string;
  agent: string;
  model: string | null;
  gitBranch: string | null;
  parentId: string | null;
  startedAt: number | null;
  endedAt: number | null;
  turns: number;
  toolCalls: number;
  filesChanged: number;
  failedCommands: number;
  /** The agent's title for it, else the first thing the user asked. */
  title: string | null;
}

/** Captured sessions, the most recent first: what `purge --session` needs to name one. */
export function listSessions(r: SqlReader, limit: number, agent?: string): CapturedSession[] {
  return r.all<CapturedSession>(
    `SELECT s.id, s.agent, s.model, s.git_branch AS gitBranch, s.parent_id AS parentId,
       s.started_at AS startedAt, s.ended_at AS endedAt,
       (SELECT count(*) FROM capture_turns t WHERE t.session_id = s.id) AS turns,
       (SELECT count(*) FROM capture_tool_calls c WHERE c.session_id = s.id) AS toolCalls,
       (SELECT count(DISTINCT path) FROM capture_file_touches f WHERE f.session_id = s.id AND f.action != 'read') AS filesChanged,
       (SELECT count(*) FROM capture_commands m WHERE m.session_id = s.id AND m.exit_code != 0) AS failedCommands,
       coalesce(s.title, (SELECT substr(text, 1, 200) FROM capture_turns t WHERE t.session_id = s.id AND t.role = 'user' ORDER BY t.id LIMIT 1)) AS title
     FROM capture_sessions s
     WHERE ? IS NULL OR s.agent = ?
     ORDER BY coalesce(s.ended_at, s.started_at, 0) DESC, s.id
     LIMIT ?`,
    [agent ?? null, agent ?? null, limit],
  );
}
