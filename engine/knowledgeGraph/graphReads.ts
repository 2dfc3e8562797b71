import type { SqlReader } from '../store/sqlAccess';
import type { KgEntity, KgGraph, KgRelation } from './graphTypes';

/**
 * Reads of the compat knowledge graph, answering as the official MCP memory server does: entities
 * and relations in creation order, observations in the order they were added, and for a part of
 * the graph every relation with at least one end among its entities.
 */

interface EntityRow {
  id: number;
  name: string;
  entityType: string;
}

/** SQLite binds at most 32,766 variables per statement; lists of names are read in slices. */
const SLICE = 500;

const RELATION_COLUMNS = 'id, from_name AS "from", to_name AS "to", relation_type AS relationType';

function slices<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += SLICE) out.push(items.slice(i, i + SLICE));
  return out;
}

const marks = (count: number) => Array.from({ length: count }, () => '?').join(', ');

/** Entities with their observations, in row order. */
function withObservations(reader: SqlReader, rows: EntityRow[], all: boolean): KgEntity[] {
  const observations = new Map<number, string[]>(rows.map((row) => [row.id, []]));
  const add = (row: { entityId: number; content: string }) =>
    observations.get(row.entityId)?.push(row.content);
  if (all) {
    reader
      .all<{ entityId: number; content: string }>(
        'SELECT entity_id AS entityId, content FROM kg_observations ORDER BY id',
      )
      .forEach(add);
  } else {
    for (const ids of slices(rows.map((row) => row.id)))
      reader
        .all<{ entityId: number; content: string }>(
          `SELECT entity_id AS entityId, content FROM kg_observations WHERE entity_id IN (${marks(ids.length)}) ORDER BY id`,
          ids,
        )
        .forEach(add);
  }
  return rows.map((row) => ({
    name: row.name,
    entityType: row.entityType,
    observations: observations.get(row.id) ?? [],
  }));
}

export function allRelations(reader: SqlReader): KgRelation[] {
  return reader
    .all<KgRelation & { id: number }>(`SELECT ${RELATION_COLUMNS} FROM kg_relations ORDER BY id`)
    .map(({ from, to, relationType }) => ({ from, to, relationType }));
}

/** Entities and their ids, in the same order. */
export interface KgEntitiesById {
  ids: number[];
  entities: KgEntity[];
}

/** Every entity with its observations, in creation order (the whole graph, with relations apart). */
export function readAllEntities(reader: SqlReader): KgEntitiesById {
  const rows = reader.all<EntityRow>(
    'SELECT id, name, entity_type AS entityType FROM kg_entities ORDER BY id',
  );
  return { ids: rows.map((row) => row.id), entities: withObservations(reader, rows, true) };
}

/**
 * The entities with these ids (those still there), with their observations: a few, read one by one
 * through two fixed statements (a list of ids as `IN (?, ...)` would prepare and keep a statement
 * per list length).
 */
export function entitiesWithIds(reader: SqlReader, ids: readonly number[]): KgEntitiesById {
  const found: KgEntitiesById = { ids: [], entities: [] };
  for (const id of ids) {
    const row = reader.get<EntityRow>(
      'SELECT id, name, entity_type AS entityType FROM kg_entities WHERE id = ?',
      [id],
    );
    if (!row) continue;
    const observations = reader
      .all<{ content: string }>('SELECT content FROM kg_observations WHERE entity_id = ? ORDER BY id', [id])
      .map((o) => o.content);
    found.ids.push(id);
    found.entities.push({ name: row.name, entityType: row.entityType, observations });
  }
  return found;
}

/**
 * Entities whose name, type or an observation contains the query, ignoring case as JavaScript's
 * toLowerCase does (all of Unicode): matched in SQL against the texts folded at write time. The
 * observations are scanned once into a set of entity ids (`IN`), not probed per entity through
 * the index (`EXISTS`): half the time at 1k and 10k entities (sql.js under Liftoff, 2 observations
 * each: 10k 50-60 -> 25-29 ms, 1k 2-6 -> 1 ms).
 */
export function searchKnowledgeGraph(reader: SqlReader, query: string): KgGraph {
  const rows = reader.all<EntityRow>(
    `SELECT e.id, e.name, e.entity_type AS entityType FROM kg_entities e
     WHERE instr(e.name_folded, ?1) > 0 OR instr(e.type_folded, ?1) > 0
        OR e.id IN (SELECT entity_id FROM kg_observations WHERE instr(content_folded, ?1) > 0)
     ORDER BY e.id`,
    [query.toLowerCase()],
  );
  return { entities: withObservations(reader, rows, false), relations: relationsTouching(reader, rows) };
}

/** Every relation with an end named by one of these entities, in creation order. */
function relationsTouching(reader: SqlReader, rows: readonly EntityRow[]): KgRelation[] {
  const relations = new Map<number, KgRelation>();
  for (const part of slices([...new Set(rows.map((row) => row.name))]))
    for (const column of ['from_name', 'to_name'])
      for (const { id, from, to, relationType } of reader.all<KgRelation & { id: number }>(
        `SELECT ${RELATION_COLUMNS} FROM kg_relations WHERE ${column} IN (${marks(part.length)})`,
        part,
      ))
        relations.set(id, { from, to, relationType });
  return [...relations.entries()].sort(([a], [b]) => a - b).map(([, relation]) => relation);
}

/** The entities with exactly these names (every one of a repeated name), and their relations. */
export function openKnowledgeGraphNodes(reader: SqlReader, names: readonly string[]): KgGraph {
  const byId = new Map<number, EntityRow>();
  for (const part of slices([...new Set(names)]))
    for (const row of reader.all<EntityRow>(
      `SELECT id, name, entity_type AS entityType FROM kg_entities WHERE name IN (${marks(part.length)})`,
      part,
    ))
      byId.set(row.id, row);
  const rows = [...byId.values()].sort((a, b) => a.id - b.id);
  return { entities: withObservations(reader, rows, false), relations: relationsTouching(reader, rows) };
}
