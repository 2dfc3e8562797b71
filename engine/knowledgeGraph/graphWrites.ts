import { notFound } from '../errors';
import { storedText } from '../extract/storedText';
import type { SqlReader, SqlWriter } from '../store/sqlAccess';
import type {
  KgAddedObservations,
  KgEntity,
  KgObservationDeletion,
  KgObservationRequest,
  KgRelation,
} from './graphTypes';

/**
 * Writes of the compat knowledge graph, inside the caller's transaction, with the official MCP
 * memory server's semantics: names match exactly; a batch is checked against the graph as it was
 * before the batch (so a name or relation repeated within one batch is stored twice, as there);
 * an observation already on its entity is not added again; deletes of what is not there succeed.
 *
 * Every text is taken as the store keeps it (secrets redacted, see store/writePolicy.ts) before it
 * is compared: a client deletes an observation by the text it wrote, and results name what was
 * stored.
 */

function firstEntityId(reader: SqlReader, name: string): number | undefined {
  return reader.value<number>('SELECT id FROM kg_entities WHERE name = ? ORDER BY id LIMIT 1', [name]);
}

function observationsOf(reader: SqlReader, entityId: number): string[] {
  return reader
    .all<{ content: string }>('SELECT content FROM kg_observations WHERE entity_id = ? ORDER BY id', [
      entityId,
    ])
    .map((row) => row.content);
}

function insertObservations(tx: SqlWriter, entityId: number, contents: readonly string[]): void {
  for (const content of contents)
    tx.run('INSERT INTO kg_observations (entity_id, content, content_folded) VALUES (?, ?, ?)', [
      entityId,
      content,
      content.toLowerCase(),
    ]);
}

/** Creates the entities whose names are not in the graph yet; returns them as stored. */
export function createKgEntities(tx: SqlWriter, entities: readonly KgEntity[]): KgEntity[] {
  const created = entities
    .map((e) => ({
      name: storedText(e.name),
      entityType: storedText(e.entityType),
      observations: e.observations.map(storedText),
    }))
    .filter((e) => firstEntityId(tx, e.name) === undefined);
  for (const entity of created) {
    tx.run('INSERT INTO kg_entities (name, entity_type, name_folded, type_folded) VALUES (?, ?, ?, ?)', [
      entity.name,
      entity.entityType,
      entity.name.toLowerCase(),
      entity.entityType.toLowerCase(),
    ]);
    const id = tx.value<number>('SELECT last_insert_rowid()');
    if (id === undefined) throw new Error('kg_entities: no rowid after insert');
    insertObservations(tx, id, entity.observations);
  }
  return created;
}

/** Creates the relations not in the graph yet (their ends need not be entities); returns them as stored. */
export function createKgRelations(tx: SqlWriter, relations: readonly KgRelation[]): KgRelation[] {
  const created = relations
    .map((r) => ({
      from: storedText(r.from),
      to: storedText(r.to),
      relationType: storedText(r.relationType),
    }))
    .filter(
      (r) =>
        tx.value(
          'SELECT 1 FROM kg_relations WHERE from_name = ? AND to_name = ? AND relation_type = ? LIMIT 1',
          [r.from, r.to, r.relationType],
        ) === undefined,
    );
  for (const r of created)
    tx.run('INSERT INTO kg_relations (from_name, to_name, relation_type) VALUES (?, ?, ?)', [
      r.from,
      r.to,
      r.relationType,
    ]);
  return created;
}

/**
 * Appends each request's new observations to the first entity of that name, in order. An unknown
 * name fails the whole call with the official server's message; the caller's transaction then
 * rolls back what earlier requests of the call wrote.
 */
export function addKgObservations(
  tx: SqlWriter,
  requests: readonly KgObservationRequest[],
): KgAddedObservations[] {
  return requests.map((request) => {
    const entityId = firstEntityId(tx, storedText(request.entityName));
    if (entityId === undefined) throw notFound(`Entity with name ${request.entityName} not found`);
    const known = new Set(observationsOf(tx, entityId));
    const added = request.contents.map(storedText).filter((content) => !known.has(content));
    insertObservations(tx, entityId, added);
    return { entityName: request.entityName, addedObservations: added };
  });
}

/** Deletes every entity with one of these names, their observations, and every relation naming them. */
export function deleteKgEntities(tx: SqlWriter, names: readonly string[]): void {
  for (const name of names.map(storedText)) {
    tx.run('DELETE FROM kg_observations WHERE entity_id IN (SELECT id FROM kg_entities WHERE name = ?)', [
      name,
    ]);
    tx.run('DELETE FROM kg_entities WHERE name = ?', [name]);
    tx.run('DELETE FROM kg_relations WHERE from_name = ? OR to_name = ?', [name, name]);
  }
}

/** Deletes every copy of these texts from the first entity of each name; unknown names are skipped. */
export function deleteKgObservations(tx: SqlWriter, deletions: readonly KgObservationDeletion[]): void {
  for (const deletion of deletions) {
    const entityId = firstEntityId(tx, storedText(deletion.entityName));
    if (entityId === undefined) continue;
    for (const text of deletion.observations)
      tx.run('DELETE FROM kg_observations WHERE entity_id = ? AND content = ?', [entityId, text]);
  }
}

/** Deletes every copy of these relations. */
export function deleteKgRelations(tx: SqlWriter, relations: readonly KgRelation[]): void {
  for (const r of relations)
    tx.run('DELETE FROM kg_relations WHERE from_name = ? AND to_name = ? AND relation_type = ?', [
      r.from,
      r.to,
      r.relationType,
    ]);
}
