import type { SqlReader } from '../store/sqlAccess';
import { sessionMembers } from './neighbourChannel';
import type { SessionMembers } from './neighbourChannel';
import { entityByAlias } from './queryAnalysis';
import type { AliasedEntity } from './queryAnalysis';

/** The store's database, as far as the cache needs it. */
export interface CountedDatabase {
  /** The last committed transaction number: counts are kept until it changes. */
  readonly lastSeq: number;
  readonly inWrite: boolean;
}

interface Counts {
  seq: number;
  active?: number;
  entityLinks: Map<number, number>;
  aliases: Map<string, AliasedEntity | null>;
  sessions: Map<string, SessionMembers>;
  entityNames: Map<number, string | null>;
  consolidatedMembers?: boolean;
}

const cache = new WeakMap<CountedDatabase, Counts>();

/**
 * Counts (and alias lookups) recall needs on every call for query entities and their selectivity. Counting scans rows (all current
 * memories: ~2 ms at 10k, ten times that at 100k; all links of a common entity) and recalls do
 * not write, so the counts are kept until the next commit. Inside a write transaction nothing is
 * cached (its rows may still be rolled back).
 */
function countsOf(db: CountedDatabase): Counts | undefined {
  if (db.inWrite) return undefined;
  let counts = cache.get(db);
  if (!counts || counts.seq !== db.lastSeq) {
    counts = {
      seq: db.lastSeq,
      entityLinks: new Map(),
      aliases: new Map(),
      sessions: new Map(),
      entityNames: new Map(),
    };
    cache.set(db, counts);
  }
  return counts;
}

/** How many current memories are active. */
export function activeMemoryCount(db: CountedDatabase, reader: SqlReader): number {
  const counts = countsOf(db);
  if (counts?.active !== undefined) return counts.active;
  const active =
    reader.value<number>("SELECT count(*) FROM memories WHERE superseded_at IS NULL AND status = 'active'") ??
    0;
  if (counts) counts.active = active;
  return active;
}

/** How many memories link to the entity (any status: the links a memory had stay). */
export function entityLinkCount(db: CountedDatabase, reader: SqlReader, entityId: number): number {
  const counts = countsOf(db);
  const cached = counts?.entityLinks.get(entityId);
  if (cached !== undefined) return cached;
  const links =
    reader.value<number>('SELECT count(*) FROM memory_entities WHERE entity_id = ?', [entityId]) ?? 0;
  counts?.entityLinks.set(entityId, links);
  return links;
}

/** The entity an alias names (queries of a session repeat names: one lookup per name per commit). */
export function cachedEntityByAlias(
  db: CountedDatabase,
  reader: SqlReader,
  alias: string,
): AliasedEntity | undefined {
  const counts = countsOf(db);
  const cached = counts?.aliases.get(alias);
  if (cached !== undefined) return cached ?? undefined;
  const entity = entityByAlias(reader, alias);
  counts?.aliases.set(alias, entity ?? null);
  return entity;
}

/** A session's active memories in write order, for neighbour score propagation. */
export function cachedSessionMembers(
  db: CountedDatabase,
  reader: SqlReader,
  session: string,
): SessionMembers {
  const counts = countsOf(db);
  const cached = counts?.sessions.get(session);
  if (cached) return cached;
  const members = sessionMembers(reader, session);
  counts?.sessions.set(session, members);
  return members;
}

/** An entity's name (recall compares the query's words with its seeds' names on every call). */
export function cachedEntityName(
  db: CountedDatabase,
  reader: SqlReader,
  entityId: number,
): string | undefined {
  const counts = countsOf(db);
  const cached = counts?.entityNames.get(entityId);
  if (cached !== undefined) return cached ?? undefined;
  const name = reader.value<string>('SELECT name FROM entities WHERE id = ?', [entityId]);
  counts?.entityNames.set(entityId, name ?? null);
  return name;
}

/**
 * Whether the store holds consolidated members (`holds` reads it): asked by every recall with
 * detail, answered by an index seek that was a twentieth of a recall at 10k memories.
 */
export function cachedHoldsConsolidatedMembers(
  db: CountedDatabase,
  reader: SqlReader,
  holds: (reader: SqlReader) => boolean,
): boolean {
  const counts = countsOf(db);
  if (counts?.consolidatedMembers !== undefined) return counts.consolidatedMembers;
  const answer = holds(reader);
  if (counts) counts.consolidatedMembers = answer;
  return answer;
}
