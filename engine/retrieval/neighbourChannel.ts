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

/**
 * The share of a text match's score its session neighbours receive. Chosen on LoCoMo conversations
 * 1-3 (0.3 to 1.0 scanned: recall@10 0.665 at 0.3, 0.696 at 0.5, 0.722 at 0.7, 0.732 at 0.8, 0.715
 * at 0.9, 0.696 at 1.0) and checked on conversations 4-5, whose figures played no part in the
 * choice (0.693 at 0.8; README, Retrieval). Below 1, a hit still ranks above the neighbours it
 * lifts.
 */
export const NEIGHBOUR_SHARE = 0.8;

export interface PropagatedHits {
  ranked: Array<{ memoryId: string; score: number }>;
  /** Memories whose score came from a neighbour: which one, and that neighbour's rank (1-based). */
  via: Map<string, { from: string; rank: number; score: number }>;
}

/**
 * Score propagation along a session: every memory adjacent to a hit (just before or after it in its
 * session) scores at least `share` of that hit's score. Replaces the hit's neighbours' own score
 * only when higher, so a neighbour that matches the query itself keeps what it earned, and one
 * next to two hits takes the better. Turns around a match are often what was asked for (the answer
 * after a question, the detail after a topic is raised), while their words differ from the query's.
 */
export function propagateToNeighbours(
  hits: ReadonlyArray<{ memoryId: string; score: number }>,
  neighboursOf: (memoryId: string) => string[],
  share = NEIGHBOUR_SHARE,
): PropagatedHits {
  const scores = new Map(hits.map((h) => [h.memoryId, h.score]));
  const via = new Map<string, { from: string; rank: number; score: number }>();
  hits.forEach((hit, index) => {
    const propagated = share * hit.score;
    if (propagated <= 0) return;
    for (const id of neighboursOf(hit.memoryId)) {
      if ((scores.get(id) ?? 0) >= propagated) continue;
      scores.set(id, propagated);
      via.set(id, { from: hit.memoryId, rank: index + 1, score: propagated });
    }
  });
  const ranked = [...scores]
    .map(([memoryId, score]) => ({ memoryId, score }))
    .sort((a, b) => b.score - a.score || a.memoryId.localeCompare(b.memoryId));
  return { ranked, via };
}

/**
 * A text channel's hits with session neighbours propagated (see propagateToNeighbours), cut to
 * `limit`. `members` lists a session's active memories in write order (callers cache it).
 */
export function withSessionNeighbours(
  reader: SqlReader,
  hits: ReadonlyArray<{ memoryId: string; score: number }>,
  limit: number,
  members: (session: string) => SessionMembers = (session) => sessionMembers(reader, session),
  /** The hits' current sessions (a caller may hold them already). */
  sessionsOf: (ids: string[]) => Map<string, string | null> = (ids) => sessionsFromStore(reader, ids),
): PropagatedHits {
  if (hits.length === 0) return { ranked: [...hits], via: new Map() };
  const sessionOf = sessionsOf(hits.map((h) => h.memoryId));
  const propagated = propagateToNeighbours(hits, (id) => {
    const session = sessionOf.get(id);
    // A memory outside any session has no neighbours.
    return session ? sessionNeighbours(reader, id, members, session) : [];
  });
  const ranked = propagated.ranked.slice(0, limit);
  const kept = new Set(ranked.map((h) => h.memoryId));
  for (const id of [...propagated.via.keys()]) if (!kept.has(id)) propagated.via.delete(id);
  return { ranked, via: propagated.via };
}

function sessionsFromStore(reader: SqlReader, ids: string[]): Map<string, string | null> {
  return new Map(
    reader
      .all<{ id: string; session: string | null }>(
        `SELECT id, session FROM memories WHERE superseded_at IS NULL AND id IN (${ids.map(() => '?').join(', ')})`,
        ids,
      )
      .map((row) => [row.id, row.session]),
  );
}
