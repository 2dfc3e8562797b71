import type { SqlReader } from '../store/sqlAccess';
import { NOT_A_CARD } from './storedPeerCards';

const DAY = 24 * 60 * 60 * 1000;

/** Belief probing's settings (beliefProbe.ts). */
export const PROBE_RULE = {
  /** Memories written this many days ago or earlier are probed. @default 30 */
  afterDays: 30,
  /** A memory is probed again after this many days. @default 30 */
  everyDays: 30,
  /** Memories probed per run. @default 20 */
  perRun: 20,
};

/** What a belief probe (beliefProbe.ts) found; apart from it so importance never loads the checker. */
export type ProbeOutcome = 'confirmed' | 'against' | 'unverifiable';

/** The last probe's outcome of each of these memories that has one (a few by id, many in one read). */
export function probeOutcomes(reader: SqlReader, ids: readonly string[]): Map<string, ProbeOutcome> {
  const wanted = new Set(ids);
  const rows =
    ids.length <= 20
      ? ids.flatMap((id) =>
          reader.all<{ id: string; data: string }>(
            "SELECT memory_id AS id, data FROM events WHERE memory_id = ? AND type = 'probe' ORDER BY seq",
            [id],
          ),
        )
      : reader.all<{ id: string; data: string }>(
          "SELECT memory_id AS id, data FROM events WHERE type = 'probe' ORDER BY seq",
        );
  const outcomes = new Map<string, ProbeOutcome>();
  for (const row of rows)
    if (wanted.has(row.id)) outcomes.set(row.id, (JSON.parse(row.data) as { outcome: ProbeOutcome }).outcome);
  return outcomes;
}

/** The memories the next run would probe: oldest first, not probed in the last `everyDays`. */
export function plannedProbes(reader: SqlReader, now: number): string[] {
  return reader
    .all<{ id: string }>(
      `SELECT m.id AS id FROM memories m
       WHERE m.superseded_at IS NULL AND m.status = 'active' AND m.layer IN ('semantic', 'procedural')
         AND m.valid_from <= ? AND ${NOT_A_CARD}
         AND NOT EXISTS (SELECT 1 FROM events e WHERE e.memory_id = m.id AND e.type = 'probe' AND e.at > ?)
       ORDER BY m.valid_from, m.id LIMIT ?`,
      [now - PROBE_RULE.afterDays * DAY, now - PROBE_RULE.everyDays * DAY, PROBE_RULE.perRun],
    )
    .map((row) => row.id);
}
