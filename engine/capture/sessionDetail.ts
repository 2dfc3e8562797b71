import type { SqlReader } from '../store/sqlAccess';
import { linkedCommits } from './link/commitLinks';

/** A session's commits, files and commands listed at most: a view for finding, not an archive. */
const MAX_ITEMS = 200;

export interface SessionDetail {
  session: string;
  /** The commits that carry its edits, oldest first, with how many of its lines each holds. */
  commits: Array<{ sha: string; subject: string; lines: number; committedAt: number }>;
  /** Files it created, edited or deleted (not only read), in the order first touched; the last action. */
  files: Array<{ path: string; action: string }>;
  /** Commands it ran, in order, with their exit status (null: not known). */
  commands: Array<{ command: string; exitCode: number | null; at: number | null }>;
}

/** What the Sessions view shows under a session: its commits, changed files and commands. */
export function sessionDetail(r: SqlReader, session: string): SessionDetail {
  const files = r.all<{ path: string; action: string }>(
    `SELECT path, (SELECT action FROM capture_file_touches l WHERE l.session_id = f.session_id AND l.path = f.path
                   AND l.action != 'read' ORDER BY l.id DESC LIMIT 1) AS action
     FROM capture_file_touches f WHERE f.session_id = ? AND f.action != 'read'
     GROUP BY path ORDER BY min(f.id) LIMIT ?`,
    [session, MAX_ITEMS],
  );
  const commands = r.all<{ command: string; exitCode: number | null; at: number | null }>(
    `SELECT command, exit_code AS exitCode, at FROM capture_commands WHERE session_id = ? ORDER BY id LIMIT ?`,
    [session, MAX_ITEMS],
  );
  return { session, commits: linkedCommits(r, session).slice(0, MAX_ITEMS), files, commands };
}
