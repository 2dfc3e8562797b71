import { CURRENT_SELECT, VERSION_COLUMNS, toMemory, toVersion } from '../memory/rows';
import type { MemoryRow } from '../memory/rows';
import type { Memory } from '../memory/types';
import { allForIds } from '../store/idLists';
import type { SqlReader } from '../store/sqlAccess';
import type { CountedDatabase } from './storeCounts';

/**
 * Current memories by id; with asOf, the version Engram believed at that time. The id lists are
 * padded (allForIds): a recall reads a different number of rows from call to call.
 */
export function fullMemories(reader: SqlReader, ids: readonly string[], asOf?: number): Map<string, Memory> {
  if (ids.length === 0) return new Map();
  const current = new Map(
    allForIds<MemoryRow>(
      reader,
      (marks) => `${CURRENT_SELECT} WHERE m.superseded_at IS NULL AND m.id IN (${marks})`,
      ids,
      [],
      true,
    ).map((row) => [row.id, toMemory(row)]),
  );
  if (asOf === undefined) return current;
  const then = new Map<string, Memory>();
  for (const row of allForIds<MemoryRow>(
    reader,
    (marks) =>
      `SELECT ${VERSION_COLUMNS} FROM memories m WHERE m.recorded_at <= ? AND (m.superseded_at IS NULL OR m.superseded_at > ?) AND m.id IN (${marks})`,
    ids,
    [asOf, asOf],
    true,
  )) {
    const state = current.get(row.id);
    // Counters added in place: a spread of the version is V8's slow path (see toMemory).
    const memory = toVersion(row) as Memory;
    memory.pinned = state?.pinned ?? false;
    memory.accessCount = state?.accessCount ?? 0;
    memory.lastAccessedAt = state?.lastAccessedAt ?? null;
    memory.confirmations = state?.confirmations ?? 1;
    then.set(row.id, memory);
  }
  return then;
}

/** What ranking a candidate reads of its memory: the filters' fields, visibility's and the boosts'. */
export type RankingRow = Pick<
  Memory,
  | 'id'
  | 'layer'
  | 'kind'
  | 'importance'
  | 'trust'
  | 'critical'
  | 'scope'
  | 'agent'
  | 'session'
  | 'status'
  | 'validFrom'
  | 'pinned'
>;

interface RankingSqlRow {
  id: string;
  layer: Memory['layer'];
  kind: Memory['kind'];
  importance: number;
  trust: Memory['trust'];
  critical: number;
  scope: Memory['scope'];
  agent: string | null;
  session: string | null;
  status: Memory['status'];
  valid_from: number;
  pinned: number | null;
}

/**
 * The ranking fields of current memories by id (with asOf, whole versions of that time: a rare
 * path that reads them as fullMemories does). A recall ranks three times k candidates and returns
 * k: whole rows (content, context, tags, source: two JSON parses a row) are read for the k only
 * (fullMemories). Reading a row costs mostly its lookup, not its columns, so the fields are kept
 * until the next commit (`db.lastSeq`, as storeCounts.ts keeps counts): candidates repeat from
 * query to query, and at k = 1000 the pool's whole rows were a third of a recall. The values are
 * converted as toMemory converts them, so the boosts and filters see the same numbers.
 */
export function rankingRows(
  db: CountedDatabase,
  reader: SqlReader,
  ids: readonly string[],
  asOf?: number,
): Map<string, RankingRow> {
  if (asOf !== undefined) return fullMemories(reader, ids, asOf);
  const known = db.inWrite ? new Map<string, RankingRow | null>() : cacheOf(db);
  const missing = ids.filter((id) => !known.has(id));
  for (const id of missing) known.set(id, null);
  for (const row of allForIds<RankingSqlRow>(
    reader,
    (marks) => `SELECT m.id, m.layer, m.kind, m.importance, m.trust, m.critical, m.scope, m.agent, m.session,
       m.status, m.valid_from, s.pinned FROM memories m LEFT JOIN memory_state s ON s.id = m.id
     WHERE m.superseded_at IS NULL AND m.id IN (${marks})`,
    missing,
    [],
    true,
  ))
    known.set(row.id, {
      id: row.id,
      layer: row.layer,
      kind: row.kind,
      importance: row.importance,
      trust: row.trust,
      critical: row.critical === 1,
      scope: row.scope,
      agent: row.agent,
      session: row.session,
      status: row.status,
      validFrom: row.valid_from,
      pinned: row.pinned === 1,
    });
  const rows = new Map<string, RankingRow>();
  for (const id of ids) {
    const row = known.get(id);
    if (row) rows.set(id, row);
  }
  return rows;
}

/** Rows kept at most (several hundred recalls' pools); then the cache starts over. */
const MAX_CACHED_ROWS = 50_000;

const caches = new WeakMap<CountedDatabase, { seq: number; rows: Map<string, RankingRow | null> }>();

/** The database's ranking rows as of its last commit (null: no current version). */
function cacheOf(db: CountedDatabase): Map<string, RankingRow | null> {
  let cache = caches.get(db);
  if (!cache || cache.seq !== db.lastSeq || cache.rows.size > MAX_CACHED_ROWS)
    caches.set(db, (cache = { seq: db.lastSeq, rows: new Map() }));
  return cache.rows;
}
