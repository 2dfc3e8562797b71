import type { SqlReader } from '../../store/sqlAccess';

/**
 * The official MCP memory server's view of Engram's entity graph: an entity is an Engram entity,
 * its observations are the active memories linked to it, its relations are the typed relations
 * between entities. Automatic co-occurrence relations are left out: they are Engram's retrieval
 * signal, not statements anyone made, and there are thousands of them.
 */
export interface GraphEntity {
  name: string;
  entityType: string;
  observations: string[];
}

export interface GraphRelation {
  from: string;
  to: string;
  relationType: string;
}

/** The weight of an explicit entity-observation link (the compat tools and the memory.jsonl import write 1). */
export const OBSERVATION_LINK_WEIGHT = 1;

/** Observations listed per entity: an entity every memory mentions must not fill a page alone. */
const OBSERVATIONS_PER_ENTITY = 200;

interface EntityRow {
  id: number;
  name: string;
  type: string;
}

export function observationsOf(reader: SqlReader, entityId: number): string[] {
  return reader
    .all<{ content: string }>(
      'SELECT m.content AS content FROM memory_entities me JOIN memories m ON m.id = me.memory_id AND m.superseded_at IS NULL ' +
        "WHERE me.entity_id = ? AND m.status = 'active' ORDER BY m.recorded_at, m.id LIMIT ?",
      [entityId, OBSERVATIONS_PER_ENTITY],
    )
    .map((row) => row.content);
}

export function toGraphEntity(reader: SqlReader, row: EntityRow): GraphEntity {
  return { name: row.name, entityType: row.type, observations: observationsOf(reader, row.id) };
}

/** Entities whose name, type or an observation contains `query` (case-insensitive), or all when undefined. */
export function matchingEntityIds(reader: SqlReader, query: string | undefined): number[] {
  if (query === undefined) {
    return reader
      .all<{ id: number }>('SELECT id FROM entities WHERE merged_into IS NULL ORDER BY id')
      .map((row) => row.id);
  }
  const like = `%${query.toLowerCase().replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
  return reader
    .all<{ id: number }>(
      `SELECT e.id FROM entities e WHERE e.merged_into IS NULL AND (lower(e.name) LIKE ?1 ESCAPE '\\' OR lower(e.type) LIKE ?1 ESCAPE '\\'
         OR EXISTS (SELECT 1 FROM memory_entities me JOIN memories m ON m.id = me.memory_id AND m.superseded_at IS NULL
                    WHERE me.entity_id = e.id AND m.status = 'active' AND lower(m.content) LIKE ?1 ESCAPE '\\'))
       ORDER BY e.id`,
      [like],
    )
    .map((row) => row.id);
}

export function entityRows(reader: SqlReader, ids: number[]): EntityRow[] {
  if (ids.length === 0) return [];
  const rows = reader.all<EntityRow>(
    `SELECT id, name, type FROM entities WHERE id IN (${ids.map(() => '?').join(', ')})`,
    ids,
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * Relations that start at one of `sources`; with `targets`, only those that also end there. Paging
 * read_graph by source entity lists every relation exactly once.
 */
export function relationsFrom(reader: SqlReader, sources: number[], targets?: number[]): GraphRelation[] {
  if (sources.length === 0) return [];
  const targetFilter =
    targets === undefined ? '' : ` AND r.target_id IN (${targets.map(() => '?').join(', ')})`;
  return reader.all<GraphRelation>(
    `SELECT s.name AS "from", t.name AS "to", r.type AS relationType FROM relations r
       JOIN entities s ON s.id = r.source_id JOIN entities t ON t.id = r.target_id
     WHERE r.type != 'co-occurs' AND r.source_id IN (${sources.map(() => '?').join(', ')})${targetFilter}
     ORDER BY r.source_id, r.target_id, r.type`,
    [...sources, ...(targets ?? [])],
  );
}

export function relationExists(reader: SqlReader, source: number, target: number, type: string): boolean {
  return (
    reader.value('SELECT 1 FROM relations WHERE source_id = ? AND target_id = ? AND type = ?', [
      source,
      target,
      type,
    ]) !== undefined
  );
}
