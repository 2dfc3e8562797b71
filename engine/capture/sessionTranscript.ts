import { notFound } from '../errors';
import type { SqlReader } from '../store/sqlAccess';

/** Turns read at most, and characters kept of each: a transcript is for reading, not for replay. */
const MAX_TURNS = 1000;
const TURN_CHARS = 2000;

export interface SessionTranscript {
  session: {
    id: string;
    agent: string;
    model: string | null;
    branch: string | null;
    startedAt: number | null;
    endedAt: number | null;
  };
  /** Every turn, redacted as the ledger keeps it, each cut to TURN_CHARS. */
  turns: Array<{ role: string; text: string; at: number | null; tools?: string[] }>;
  /** How many turns the session has (more than `turns` past MAX_TURNS). */
  total: number;
}

/**
 * A captured session's conversation as stored (redacted before it was stored): user, assistant,
 * summary and system turns in order, each with the tools called after it.
 */
export function sessionTranscript(r: SqlReader, id: string): SessionTranscript {
  const session = r.get<SessionTranscript['session']>(
    `SELECT id, agent, model, git_branch AS branch, started_at AS startedAt, ended_at AS endedAt
     FROM capture_sessions WHERE id = ?`,
    [id],
  );
  if (!session) throw notFound(`no captured session "${id.slice(0, 100)}"`);
  const rows = r.all<{ role: string; text: string; at: number | null; record_id: number }>(
    'SELECT role, text, at, record_id FROM capture_turns WHERE session_id = ? ORDER BY id LIMIT ?',
    [id, MAX_TURNS],
  );
  const calls = r.all<{ name: string | null; record_id: number }>(
    'SELECT name, record_id FROM capture_tool_calls WHERE session_id = ? ORDER BY record_id, id',
    [id],
  );
  const turns: SessionTranscript['turns'] = rows.map((t) => ({
    role: t.role,
    text: t.text.length > TURN_CHARS ? `${t.text.slice(0, TURN_CHARS - 1)}…` : t.text,
    at: t.at,
  }));
  // Each call goes with the last turn recorded before (or with) it.
  let i = 0;
  for (const call of calls) {
    while (i + 1 < rows.length && (rows[i + 1] as { record_id: number }).record_id <= call.record_id) i++;
    const turn = turns[i];
    if (!turn || call.name === null) continue;
    (turn.tools ??= []).push(call.name);
  }
  const total = r.value<number>('SELECT count(*) FROM capture_turns WHERE session_id = ?', [id]) ?? 0;
  return { session, turns, total };
}
