import { invalidInput } from '../errors';
import { forEachJsonObject } from './jsonLines';
import { recordRelation, upsertEntity } from '../memory/entityGraph';
import { importIntoKnowledgeGraph } from '../knowledgeGraph/graphImport';
import type { KgEntity, KgRelation } from '../knowledgeGraph/graphTypes';
import type { MemoryStore } from '../memory/memoryStore';
import type { RememberInput, RememberRejection } from '../memory/types';

/**
 * Imports the knowledge graph file of the official MCP memory server (`memory.jsonl`): lines
 * `{"type":"entity","name","entityType","observations":[...]}` and
 * `{"type":"relation","from","to","relationType"}`. The graph goes into the compat knowledge graph
 * as the file holds it (the compat tools then answer as the official server did over that file);
 * besides, each observation becomes a semantic memory linked to an Engram entity, and relations
 * directed entity relations, so that Engram's own recall and graph know them too.
 */
type McpEntity = KgEntity;
type McpRelation = KgRelation;

export function parseMcpMemoryLines(lines: string[]): { entities: McpEntity[]; relations: McpRelation[] } {
  const entities: McpEntity[] = [];
  const relations: McpRelation[] = [];
  forEachJsonObject(lines, (record, where) => {
    if (record['type'] === 'entity') {
      const { name, entityType, observations } = record;
      // The official server accepts any text as a name, the empty one included.
      if (typeof name !== 'string') throw invalidInput(`${where}: entity needs a name`);
      if (typeof entityType !== 'string')
        throw invalidInput(`${where}: entity "${name}" needs an entityType`);
      if (!Array.isArray(observations) || observations.some((o) => typeof o !== 'string')) {
        throw invalidInput(`${where}: observations of "${name}" must be a list of text`);
      }
      entities.push({ name, entityType, observations: observations as string[] });
    } else if (record['type'] === 'relation') {
      const { from, to, relationType } = record;
      if (typeof from !== 'string' || typeof to !== 'string' || typeof relationType !== 'string') {
        throw invalidInput(`${where}: relation needs text from, to and relationType`);
      }
      relations.push({ from, to, relationType });
    } else {
      throw invalidInput(
        `${where}: type must be "entity" or "relation"; got ${JSON.stringify(record['type'])}`,
      );
    }
  });
  return { entities, relations };
}

/** An observation that did not become a memory (empty, or over a limit), with the reason. */
export interface RejectedObservation {
  entity: string;
  /** Its position among the entity's observations, from 0. */
  observation: number;
  error: RememberRejection['error'];
}

export interface McpMemoryImport {
  entities: number;
  /** Observations written as memories. */
  observations: number;
  relations: number;
  /** Observations already stored (confirmed, not stored twice). */
  duplicates: number;
  /** Observations refused one by one; the rest of the file is imported. */
  rejected: RejectedObservation[];
}

export function importMcpMemory(store: MemoryStore, lines: string[]): McpMemoryImport {
  const { entities, relations } = parseMcpMemoryLines(lines);
  return store.write((tx, now) => {
    importIntoKnowledgeGraph(tx, entities, relations);
    let observations = 0;
    let duplicates = 0;
    const rejected: RejectedObservation[] = [];
    const ids = new Map<string, number>();
    for (const entity of entities) {
      // Engram's entity graph keys names by their trimmed lower case: an empty one has no entity.
      if (entity.name.trim() === '') continue;
      const id = upsertEntity(tx, entity.name.trim().toLowerCase(), entity.name, entity.entityType, now);
      ids.set(entity.name, id);
      const inputs: RememberInput[] = entity.observations.map((observation) => ({
        content: observation,
        context: `${entity.name} (${entity.entityType})`,
        layer: 'semantic',
        kind: 'fact',
        tags: [entity.entityType],
        trust: 'ingest',
      }));
      for (const result of store.rememberMany(inputs, { agent: 'mcp-memory-import' })) {
        if (result.outcome === 'rejected') {
          rejected.push({ entity: entity.name, observation: result.index, error: result.error });
          continue;
        }
        if (result.outcome === 'unchanged') duplicates++;
        else observations++;
        tx.run(
          'INSERT INTO memory_entities (memory_id, entity_id, weight) VALUES (?, ?, 1) ON CONFLICT (memory_id, entity_id) DO UPDATE SET weight = 1',
          [result.memory.id, id],
        );
      }
    }
    for (const relation of relations) {
      if (relation.from.trim() === '' || relation.to.trim() === '') continue;
      const from =
        ids.get(relation.from) ??
        upsertEntity(tx, relation.from.trim().toLowerCase(), relation.from, 'name', now);
      const to =
        ids.get(relation.to) ?? upsertEntity(tx, relation.to.trim().toLowerCase(), relation.to, 'name', now);
      recordRelation(tx, from, to, relation.relationType, now);
    }
    return { entities: entities.length, observations, relations: relations.length, duplicates, rejected };
  });
}
