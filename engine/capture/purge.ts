import type { SqlWriter } from '../store/sqlAccess';
import { deleteSessionMemories } from './purgeMemories';

export interface PurgeReport {
  sessions: string[];
  records: number;
  turns: number;
  toolCalls: number;
  fileTouches: number;
  commands: number;
  /** Summary memories written from the sessions (sessionSummary.ts), every version. */
  memories: number;
}

const DERIVED = [
  ['turns', 'capture_turns'],
  ['toolCalls', 'capture_tool_calls'],
  ['fileTouches', 'capture_file_touches'],
  ['commands', 'capture_commands'],
  ['records', 'capture_records'],
] as const;

/**
 * Deletes sessions and everything derived from them (their sub-agents' sessions too): ledger
 * records, turns, tool calls, file touches, commands, summary memories. Deleted rows, not hidden ones
 * (`secure_delete` overwrites their pages); the ids are kept in `capture_purged` so that reading
 * their files again does not bring them back.
 */
export function purgeSessions(tx: SqlWriter, ids: readonly string[], now: number): PurgeReport {
  const report: PurgeReport = {
    sessions: [],
    records: 0,
    turns: 0,
    toolCalls: 0,
    fileTouches: 0,
    commands: 0,
    memories: 0,
  };
  const all = new Set(ids);
  for (const id of ids) {
    for (const child of tx.all<{ id: string }>('SELECT id FROM capture_sessions WHERE parent_id = ?', [id])) {
      all.add(child.id);
    }
  }
  tx.run('PRAGMA secure_delete = ON');
  for (const id of all) {
    for (const [key, table] of DERIVED)
      report[key] += tx.run(`DELETE FROM ${table} WHERE session_id = ?`, [id]);
    tx.run('DELETE FROM capture_commit_links WHERE session_id = ?', [id]);
    tx.run("DELETE FROM events WHERE type = 'capture-observations' AND session = ?", [id]);
    tx.run('DELETE FROM capture_sessions WHERE id = ?', [id]);
    tx.run('INSERT OR REPLACE INTO capture_purged (session_id, purged_at) VALUES (?, ?)', [id, now]);
    report.sessions.push(id);
  }
  report.memories = deleteSessionMemories(tx, report.sessions, now);
  return report;
}

/** The sessions that ended (or, with no end, started) before `time`. */
export function sessionsBefore(tx: SqlWriter, time: number): string[] {
  return tx
    .all<{ id: string }>(
      'SELECT id FROM capture_sessions WHERE coalesce(ended_at, started_at, 0) < ? ORDER BY id',
      [time],
    )
    .map((r) => r.id);
}
