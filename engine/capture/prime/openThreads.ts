import type { SqlReader } from '../../store/sqlAccess';

export interface OpenThread {
  sessionId: string;
  /** What is open, in words. */
  text: string;
  at: number | null;
}

/** Sessions looked at for open threads: the last few, the most recent first. */
const RECENT_SESSIONS = 5;
const MAX_TODO = 200;

/**
 * A sentence a user starts with TODO / FIXME, "still need to", "next we need to", "later:" or
 * "follow-up:": work they named and left for later.
 */
const TODO_RE =
  /^(?:(?:TODO|FIXME)\b[:\s]|(?:we\s+|I\s+)?still\s+(?:need|have)\s+to\b|next,?\s+(?:we|I)\s+(?:need|have|want)\s+to\b|(?:later|follow[- ]up)\s*:)/i;

export function statedTodos(turn: string): string[] {
  const found: string[] = [];
  for (const raw of turn.split(/(?<=[.!?])\s+|\n+/)) {
    const sentence = raw.trim().replace(/^[-*>#\s]+/, '');
    if (sentence.length >= 8 && sentence.length <= MAX_TODO && TODO_RE.test(sentence)) found.push(sentence);
  }
  return found;
}

/**
 * What the last sessions left open: commands whose last run failed and that no later run (in
 * that session or a later one) passed, and the TODOs the user stated.
 */
export function openThreads(r: SqlReader): OpenThread[] {
  const sessions = r.all<{ id: string; startedAt: number | null }>(
    `SELECT id, started_at AS startedAt FROM capture_sessions WHERE parent_id IS NULL
     ORDER BY coalesce(ended_at, started_at, 0) DESC LIMIT ?`,
    [RECENT_SESSIONS],
  );
  const threads: OpenThread[] = [];
  for (const s of sessions) {
    const failing = r.all<{ command: string; exit_code: number; at: number | null }>(
      `SELECT c.command, c.exit_code, c.at FROM capture_commands c
       WHERE c.session_id = ? AND c.exit_code IS NOT NULL AND c.exit_code != 0
         AND c.id = (SELECT max(d.id) FROM capture_commands d WHERE d.session_id = c.session_id AND d.command = c.command)
         AND NOT EXISTS (SELECT 1 FROM capture_commands p WHERE p.command = c.command AND p.exit_code = 0
                         AND coalesce(p.at, 0) > coalesce(c.at, 0))
       ORDER BY c.id`,
      [s.id],
    );
    for (const f of failing) {
      threads.push({
        sessionId: s.id,
        text: `\`${f.command.replace(/\s+/g, ' ').slice(0, 120)}\` failed (exit ${f.exit_code}) and has not passed since`,
        at: f.at,
      });
    }
    const turns = r.all<{ text: string; at: number | null }>(
      "SELECT text, at FROM capture_turns WHERE session_id = ? AND role = 'user' ORDER BY id",
      [s.id],
    );
    for (const turn of turns) {
      for (const todo of statedTodos(turn.text))
        threads.push({
          sessionId: s.id,
          text: /^(?:TODO|FIXME)\b/i.test(todo) ? todo : `TODO: ${todo}`,
          at: turn.at,
        });
    }
  }
  return threads;
}
