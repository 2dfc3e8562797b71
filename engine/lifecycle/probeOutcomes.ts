import type { SqlReader } from '../store/sqlAccess';

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
