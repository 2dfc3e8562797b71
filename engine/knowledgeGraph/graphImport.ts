import { storedText } from '../extract/storedText';
import type { SqlWriter } from '../store/sqlAccess';
import { addKgObservations, createKgEntities, createKgRelations } from './graphWrites';
import type { KgEntity, KgRelation } from './graphTypes';

/**
 * A graph (an official memory.jsonl, or the compat graph of an Engram export) into the compat
 * knowledge graph, as the official server would hold it after reading it as its file: entities
 * and relations in file order, a name or relation repeated in the file kept twice. What the graph already held stays: an entity already there gets the file's
 * observations it lacks, a relation already there is not added again.
 */
export function importIntoKnowledgeGraph(
  tx: SqlWriter,
  entities: readonly KgEntity[],
  relations: readonly KgRelation[],
): void {
  const known = new Set(
    entities
      .filter(
        (e) =>
          tx.value('SELECT 1 FROM kg_entities WHERE name = ? LIMIT 1', [storedText(e.name)]) !== undefined,
      )
      .map((e) => e.name),
  );
  createKgEntities(
    tx,
    entities.filter((e) => !known.has(e.name)),
  );
  addKgObservations(
    tx,
    entities.filter((e) => known.has(e.name)).map((e) => ({ entityName: e.name, contents: e.observations })),
  );
  createKgRelations(tx, relations);
}
