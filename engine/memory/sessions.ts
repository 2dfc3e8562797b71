import type { SqlReader, SqlWriter } from '../store/sqlAccess';

/** Starts or refreshes a session: its working memory lives `ttlMs` past the last access. */
export function touchSession(
  tx: SqlWriter,
  session: string,
  agent: string | null,
  now: number,
  ttlMs: number,
): void {
  tx.run(
    'INSERT INTO sessions (id, agent, started_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?) ' +
      'ON CONFLICT (id) DO UPDATE SET last_seen_at = excluded.last_seen_at, expires_at = excluded.expires_at',
    [session, agent, now, now, now + ttlMs],
  );
}

/** UTF-8 bytes of content and context of a session's active working memories. */
export function workingBytes(reader: SqlReader, session: string): number {
  return (
    reader.value<number>(
      "SELECT coalesce(sum(length(CAST(content AS BLOB)) + coalesce(length(CAST(context AS BLOB)), 0)), 0) FROM memories WHERE session = ? AND layer = 'working' AND status = 'active' AND superseded_at IS NULL",
      [session],
    ) ?? 0
  );
}

/** Ends expired sessions; returns the ids of their active working memories, to be kept as episodes. */
export function expireSessions(tx: SqlWriter, now: number): string[] {
  const expired = tx
    .all<{ id: string }>('SELECT id FROM sessions WHERE expires_at <= ?', [now])
    .map((r) => r.id);
  const memoryIds: string[] = [];
  for (const session of expired) {
    for (const row of tx.all<{ id: string }>(
      "SELECT id FROM memories WHERE session = ? AND layer = 'working' AND status = 'active' AND superseded_at IS NULL",
      [session],
    )) {
      memoryIds.push(row.id);
    }
    tx.run('DELETE FROM sessions WHERE id = ?', [session]);
  }
  return memoryIds;
}
