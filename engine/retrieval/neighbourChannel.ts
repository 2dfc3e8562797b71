import type { SqlReader } from '../store/sqlAccess';

/**
 * Context expansion: the memories written just before and after a strong hit in the same session.
 * Conversations and work sessions answer a question across consecutive turns (a question, then
 * its answer), so the turns around a match are often what was asked for. Write order is the
 * memory's document number (assigned in insertion order), not its id: ids written in the same
 * millisecond are not ordered.
 */
export function sessionNeighbours(reader: SqlReader, memoryId: string): string[] {
  const row = reader.get<{ session: string | null; doc: number | null }>(
    'SELECT m.session AS session, d.doc AS doc FROM memories m LEFT JOIN memory_docs d ON d.memory_id = m.id WHERE m.id = ? AND m.superseded_at IS NULL',
    [memoryId],
  );
  if (!row?.session || row.doc === null) return [];
  const neighbour = (comparison: '<' | '>') =>
    reader.value<string>(
      `SELECT d.memory_id FROM memory_docs d JOIN memories m ON m.id = d.memory_id AND m.superseded_at IS NULL
       WHERE m.session = ? AND d.doc ${comparison} ? AND m.status = 'active'
       ORDER BY d.doc ${comparison === '<' ? 'DESC' : 'ASC'} LIMIT 1`,
      [row.session, row.doc],
    );
  return [neighbour('<'), neighbour('>')].filter((id): id is string => id !== undefined);
}
