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

/**
 * The ranking fields of current memories by id, kept until the next commit (`db.lastSeq`, as
 * storeCounts.ts keeps counts): a recall ranks three times k candidates and returns k, and
 * candidates repeat from query to query. A row costs mostly its lookup, not its columns, so the
 * ids not known yet are read whole (fullMemories) into `whole`, from which recall returns them
 * without a second read; only what is known is not read again, and whole rows are then read for
 * the k returned only (at k = 1000 the pool's whole rows were a third of a recall). With asOf,
 * whole versions of that time (a rare path, nothing kept).
 */
export function rankingRows(
  db: CountedDatabase,
  reader: SqlReader,
  ids: readonly string[],
  whole: Map<string, Memory>,
  asOf?: number,
): Map<string, RankingRow> {
  if (asOf !== undefined) {
    const read = fullMemories(reader, ids, asOf);
    for (const [id, memory] of read) whole.set(id, memory);
    return read;
  }
  const known = db.inWrite ? new Map<string, RankingRow | null>() : cacheOf(db);
  const missing = ids.filter((id) => !known.has(id) && !whole.has(id));
  const read = fullMemories(reader, missing);
  for (const id of missing) {
    const memory = read.get(id);
    known.set(id, memory ? rankingFields(memory) : null);
    if (memory) whole.set(id, memory);
  }
  const rows = new Map<string, RankingRow>();
  for (const id of ids) {
    const row = whole.get(id) ?? known.get(id);
    if (row) rows.set(id, row);
  }
  return rows;
}

/** A copy of the fields ranking reads: what is kept per commit holds no content. */
function rankingFields(memory: Memory): RankingRow {
  return {
    id: memory.id,
    layer: memory.layer,
    kind: memory.kind,
    importance: memory.importance,
    trust: memory.trust,
    critical: memory.critical,
    scope: memory.scope,
    agent: memory.agent,
    session: memory.session,
    status: memory.status,
    validFrom: memory.validFrom,
    pinned: memory.pinned,
  };
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
