import type { SqlReader } from '../store/sqlAccess';

/** A session's current, active memories in write order (ascending document number). */
export interface SessionMembers {
  docs: Int32Array;
  ids: string[];
  /** Position of each id (built on first use). */
  positions?: Map<string, number>;
}

export function sessionMembers(reader: SqlReader, session: string): SessionMembers {
  const rows = reader.all<{ doc: number; id: string }>(
    `SELECT d.doc AS doc, m.id AS id FROM memories m JOIN memory_docs d ON d.memory_id = m.id
     WHERE m.session = ? AND m.superseded_at IS NULL AND m.status = 'active' ORDER BY d.doc`,
    [session],
  );
  return { docs: Int32Array.from(rows, (row) => row.doc), ids: rows.map((row) => row.id) };
}

/**
 * Context expansion: the memories written just before and after a strong hit in the same session.
 * Conversations and work sessions answer a question across consecutive turns (a question, then
 * its answer), so the turns around a match are often what was asked for. Write order is the
 * memory's document number (assigned in insertion order), not its id: ids written in the same
 * millisecond are not ordered. `members` lists a session (callers cache it: an agent's session
 * can hold thousands of memories, and a recall looks up the neighbours of ten hits).
 */
export function sessionNeighbours(
  reader: SqlReader,
  memoryId: string,
  members: (session: string) => SessionMembers = (session) => sessionMembers(reader, session),
  /** The memory's current session, when the caller has its current row. */
  knownSession?: string,
): string[] {
  if (knownSession !== undefined) {
    // An active memory is in its session's list: its neighbours are the entries around it.
    const list = members(knownSession);
    list.positions ??= new Map(list.ids.map((id, i) => [id, i]));
    const at = list.positions.get(memoryId);
    if (at !== undefined) return [list.ids[at - 1], list.ids[at + 1]].filter((id) => id !== undefined);
  }
  const row = reader.get<{ session: string | null; doc: number | null }>(
    'SELECT m.session AS session, d.doc AS doc FROM memories m LEFT JOIN memory_docs d ON d.memory_id = m.id WHERE m.id = ? AND m.superseded_at IS NULL',
    [memoryId],
  );
  if (!row?.session || row.doc === null) return [];
  const { docs, ids } = members(row.session);
  // The first member written after the hit, and the one before that position.
  let lo = 0;
  let hi = docs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid]! <= row.doc) lo = mid + 1;
    else hi = mid;
  }
  let before = lo - 1;
  if (before >= 0 && docs[before] === row.doc) before--;
  return [before >= 0 ? ids[before] : undefined, lo < docs.length ? ids[lo] : undefined].filter(
    (id): id is string => id !== undefined,
  );
}
