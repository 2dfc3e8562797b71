import type { SqlWriter } from '../store/sqlAccess';

/** What a record tells of its session's row: who wrote it, where, and when (if it says). */
export interface SessionRecord {
  agent: string;
  source: string;
  sessionId: string;
  at: number | undefined;
}

/**
 * The sessions one transaction writes records of. A session's row is created on its first record
 * (as it was read: agent, file, time) and its start and end are widened once, when the
 * transaction's records are written (`flush`), by the earliest and latest time among them: the
 * rows are those two statements per record gave, for one or two per session and transaction (a
 * twentieth of a capture write on real Claude Code transcripts, 2026-11-28).
 */
export class SessionTimes {
  private readonly spans = new Map<string, { from: number; to: number } | null>();

  /** Creates the record's session once per transaction and notes the record's time. */
  note(tx: SqlWriter, record: SessionRecord): void {
    const { sessionId, at } = record;
    let span = this.spans.get(sessionId);
    if (span === undefined) {
      tx.run(
        'INSERT OR IGNORE INTO capture_sessions (id, agent, source, started_at, ended_at) VALUES (?, ?, ?, ?, ?)',
        [sessionId, record.agent, record.source, at ?? null, at ?? null],
      );
      span = null;
    }
    if (at !== undefined)
      span =
        span === null ? { from: at, to: at } : { from: Math.min(span.from, at), to: Math.max(span.to, at) };
    this.spans.set(sessionId, span);
  }

  /** Widens each session's start and end by its records' times; call before the transaction ends. */
  flush(tx: SqlWriter): void {
    for (const [sessionId, span] of this.spans) {
      if (span === null) continue;
      tx.run(
        'UPDATE capture_sessions SET started_at = min(coalesce(started_at, ?), ?), ended_at = max(coalesce(ended_at, ?), ?) WHERE id = ?',
        [span.from, span.from, span.to, span.to, sessionId],
      );
    }
    this.spans.clear();
  }
}
