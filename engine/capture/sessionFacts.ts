import type { SqlReader } from '../store/sqlAccess';

/** The conflict key of a session's summary: a longer session's summary supersedes the earlier one. */
export const summaryKey = (sessionId: string) => `capture:${sessionId}`;

/** What the user first asked in a session, or undefined. */
export function sessionGoal(r: SqlReader, sessionId: string): string | undefined {
  return r.value<string>(
    "SELECT text FROM capture_turns WHERE session_id = ? AND role = 'user' AND trim(text) != '' ORDER BY id LIMIT 1",
    [sessionId],
  );
}

/** A session's current summary memory (sessionSummary.ts), or undefined. */
export function summaryMemory(r: SqlReader, sessionId: string): { id: string; content: string } | undefined {
  return r.get<{ id: string; content: string }>(
    "SELECT id, content FROM memories WHERE conflict_key = ? AND superseded_at IS NULL AND status = 'active' LIMIT 1",
    [summaryKey(sessionId)],
  );
}

/** Text on one line, whitespace collapsed, cut to `max` characters with an ellipsis. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
