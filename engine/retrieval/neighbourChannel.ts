import type { SqlReader } from '../store/sqlAccess';

/**
 * Neighbour channel: the memories written just before and after a strong hit in the same session.
 * Conversations and work sessions answer a question across consecutive turns (a question, then
 * its answer), so the turns around a match are often what was asked for. Ids are time-sortable,
 * so "just before/after" is id order within the session.
 */
export function neighbourCandidates(
  reader: SqlReader,
  parents: Array<{ memoryId: string }>,
  limit: number,
): Array<{ memoryId: string; score: number }> {
  const out: Array<{ memoryId: string; score: number }> = [];
  const seen = new Set(parents.map((p) => p.memoryId));
  parents.slice(0, 20).forEach((parent, rank) => {
    const session = reader.value<string | null>('SELECT session FROM memories WHERE id = ? AND superseded_at IS NULL', [parent.memoryId]);
    if (!session) return;
    const around = [
      reader.value<string>(
        "SELECT id FROM memories WHERE session = ? AND id < ? AND superseded_at IS NULL AND status = 'active' ORDER BY id DESC LIMIT 1",
        [session, parent.memoryId],
      ),
      reader.value<string>(
        "SELECT id FROM memories WHERE session = ? AND id > ? AND superseded_at IS NULL AND status = 'active' ORDER BY id ASC LIMIT 1",
        [session, parent.memoryId],
      ),
    ];
    for (const id of around) {
      if (id === undefined || seen.has(id)) continue;
      seen.add(id);
      out.push({ memoryId: id, score: 1 / (rank + 1) });
    }
  });
  return out.slice(0, limit);
}
