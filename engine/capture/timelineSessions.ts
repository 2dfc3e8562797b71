import type { SqlReader } from '../store/sqlAccess';
import type { TimelineSession } from '../api/timelinePayload';

/** @default 2000 sessions: the newest are kept; older ones are old news on a timeline. */
export const MAX_TIMELINE_SESSIONS = 2_000;

/**
 * The captured sessions the Timeline draws as bands, oldest first: top-level sessions only (a
 * sub-agent's transcript runs inside its parent's band) with a known start. A session whose end
 * is unknown ends at its start (a band of one instant, drawn a few pixels wide).
 */
export function timelineSessions(r: SqlReader, limit = MAX_TIMELINE_SESSIONS): TimelineSession[] {
  return r
    .all<TimelineSession>(
      `SELECT s.id, s.agent, s.started_at AS startedAt, coalesce(s.ended_at, s.started_at) AS endedAt,
         (SELECT count(*) FROM capture_turns t WHERE t.session_id = s.id) AS turns,
         coalesce(s.title, (SELECT substr(text, 1, 200) FROM capture_turns t
           WHERE t.session_id = s.id AND t.role = 'user' ORDER BY t.id LIMIT 1)) AS title
       FROM capture_sessions s
       WHERE s.parent_id IS NULL AND s.started_at IS NOT NULL
       ORDER BY s.started_at DESC, s.id
       LIMIT ?`,
      [limit],
    )
    .reverse();
}
