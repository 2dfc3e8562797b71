import { notFound } from '../../errors';
import { withoutSecrets } from '../../extract/secrets';
import { findEntity, recordRelation, upsertEntity } from '../../memory/entityGraph';
import type { MemoryStore } from '../../memory/memoryStore';
import type { Actor, RememberInput } from '../../memory/types';
import type { SqlWriter } from '../../store/sqlAccess';
import { OBSERVATION_LINK_WEIGHT, observationsOf, relationExists } from './knowledgeGraph';
import type { GraphEntity, GraphRelation } from './knowledgeGraph';

/**
 * Writes of the official MCP memory server's tools, applied to Engram's entity graph inside the
 * caller's transaction. Observations become semantic memories (deduplicated like any memory) with
 * an explicit link to their entity, written as the calling agent. Results name what was stored:
 * observations, names and relation types with their secrets redacted, as every read shows them.
 */
export function addObservations(
  store: MemoryStore,
  tx: SqlWriter,
  entity: { id: number; name: string; type: string },
  contents: string[],
  actor: Actor,
): string[] {
  const known = new Set(observationsOf(tx, entity.id));
  const added = [...new Set(contents.map(withoutSecrets))].filter((content) => !known.has(content));
  if (added.length === 0) return [];
  const inputs: RememberInput[] = added.map((content) => ({
    content,
    context: `${entity.name} (${entity.type})`,
    layer: 'semantic',
    kind: 'fact',
    tags: [entity.type],
  }));
  for (const result of store.rememberMany(inputs, actor)) {
    tx.run(
      'INSERT INTO memory_entities (memory_id, entity_id, weight) VALUES (?, ?, ?) ON CONFLICT (memory_id, entity_id) DO UPDATE SET weight = excluded.weight',
      [result.memory.id, entity.id, OBSERVATION_LINK_WEIGHT],
    );
  }
  return added;
}

/** Creates the entities whose names are new; existing names are left alone, as the official server does. */
export function createEntities(
  store: MemoryStore,
  tx: SqlWriter,
  now: number,
  entities: GraphEntity[],
  actor: Actor,
): GraphEntity[] {
  const created: GraphEntity[] = [];
  for (const entity of entities) {
    if (findEntity(tx, entity.name)) continue;
    const key = entity.name.trim().toLowerCase();
    const name = withoutSecrets(entity.name);
    const entityType = withoutSecrets(entity.entityType);
    const id = upsertEntity(tx, key, name, entityType, now);
    addObservations(store, tx, { id, name, type: entityType }, entity.observations, actor);
    created.push({ name, entityType, observations: entity.observations.map(withoutSecrets) });
  }
  return created;
}

/** Creates the relations not already there; unknown entity names become entities, as in an import. */
export function createRelations(tx: SqlWriter, now: number, relations: GraphRelation[]): GraphRelation[] {
  const created: GraphRelation[] = [];
  for (const relation of relations) {
    const source = ensureEntity(tx, relation.from, now);
    const target = ensureEntity(tx, relation.to, now);
    const relationType = withoutSecrets(relation.relationType);
    if (relationExists(tx, source, target, relationType)) continue;
    recordRelation(tx, source, target, relationType, now);
    created.push({ from: withoutSecrets(relation.from), to: withoutSecrets(relation.to), relationType });
  }
  return created;
}

function ensureEntity(tx: SqlWriter, name: string, now: number): number {
  return findEntity(tx, name)?.id ?? upsertEntity(tx, name.trim().toLowerCase(), name, 'name', now);
}

export function requireEntity(tx: SqlWriter, name: string, field: string) {
  const entity = findEntity(tx, name);
  if (!entity) throw notFound(`${field}: no entity named "${name}"`);
  return entity;
}

/**
 * Deletes an entity: its explicit observations are forgotten (recoverable with restore), its
 * relations, links and aliases removed. Memories that only mention it stay.
 */
export function deleteEntity(store: MemoryStore, tx: SqlWriter, name: string, actor: Actor): number {
  const entity = findEntity(tx, name);
  if (!entity) return 0;
  const observations = tx.all<{ id: string }>(
    'SELECT me.memory_id AS id FROM memory_entities me JOIN memories m ON m.id = me.memory_id AND m.superseded_at IS NULL ' +
      "WHERE me.entity_id = ? AND me.weight >= ? AND m.status != 'forgotten'",
    [entity.id, OBSERVATION_LINK_WEIGHT],
  );
  for (const { id } of observations) store.forget(id, actor);
  const ids = [
    entity.id,
    ...tx.all<{ id: number }>('SELECT id FROM entities WHERE merged_into = ?', [entity.id]).map((r) => r.id),
  ];
  for (const id of ids) {
    tx.run('DELETE FROM relations WHERE source_id = ? OR target_id = ?', [id, id]);
    tx.run('DELETE FROM memory_entities WHERE entity_id = ?', [id]);
    tx.run('DELETE FROM entity_aliases WHERE entity_id = ?', [id]);
    tx.run('DELETE FROM entity_weights WHERE entity_id = ?', [id]);
    tx.run('DELETE FROM entities WHERE id = ?', [id]);
  }
  return observations.length;
}

/** Forgets the observations of an entity with exactly these texts; an unknown entity is skipped. */
export function deleteObservations(
  store: MemoryStore,
  tx: SqlWriter,
  entityName: string,
  texts: string[],
  actor: Actor,
): number {
  const entity = findEntity(tx, entityName);
  if (!entity || texts.length === 0) return 0;
  const matches = tx.all<{ id: string }>(
    'SELECT me.memory_id AS id FROM memory_entities me JOIN memories m ON m.id = me.memory_id AND m.superseded_at IS NULL ' +
      `WHERE me.entity_id = ? AND m.status = 'active' AND m.content IN (${texts.map(() => '?').join(', ')})`,
    [entity.id, ...texts.map(withoutSecrets)],
  );
  for (const { id } of matches) store.forget(id, actor);
  return matches.length;
}

export function deleteRelation(tx: SqlWriter, relation: GraphRelation): number {
  const source = findEntity(tx, relation.from);
  const target = findEntity(tx, relation.to);
  if (!source || !target) return 0;
  return tx.run('DELETE FROM relations WHERE source_id = ? AND target_id = ? AND type = ?', [
    source.id,
    target.id,
    withoutSecrets(relation.relationType),
  ]);
}
