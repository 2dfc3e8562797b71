import { optionalQueryText } from './params';
import type { Params } from './params';
import {
  openKnowledgeGraphNodes,
  readKnowledgeGraph,
  searchKnowledgeGraph,
} from '../knowledgeGraph/graphReads';
import type { KgEntity, KgGraph, KgRelation } from '../knowledgeGraph/graphTypes';
import {
  addKgObservations,
  createKgEntities,
  createKgRelations,
  deleteKgEntities,
  deleteKgObservations,
  deleteKgRelations,
} from '../knowledgeGraph/graphWrites';
import type { MemoryStore } from '../memory/memoryStore';
import { recordList, text, textList } from './recordParams';
import { defineMethod, UNCHECKED_PARAMS } from './defineMethod';

/**
 * The MCP memory server's knowledge graph: the methods behind the official memory server's tools
 * (the compat profile), over its own tables (engine/knowledgeGraph), journaled like every write and
 * apart from Engram's extracted entity graph (graphMethods.ts).
 */

function entitiesParam(params: Params): KgEntity[] {
  return recordList(params, 'entities').map((record, i) => ({
    name: text(record, 'name', `entities[${i}]`),
    entityType: text(record, 'entityType', `entities[${i}]`),
    observations: textList(record, 'observations', `entities[${i}]`),
  }));
}

function relationsParam(params: Params): KgRelation[] {
  return recordList(params, 'relations').map((record, i) => ({
    from: text(record, 'from', `relations[${i}]`),
    to: text(record, 'to', `relations[${i}]`),
    relationType: text(record, 'relationType', `relations[${i}]`),
  }));
}

function namesParam(params: Params, field: string): string[] | undefined {
  const value = params[field];
  if (value === undefined || value === null) return undefined;
  return textList(params, field, 'params');
}

/** One transaction per call: all of a call's changes are kept, or none (a failed add_observations). */
function graphWrite<R>(run: (store: MemoryStore, params: Params) => R) {
  return defineMethod({
    params: UNCHECKED_PARAMS,
    write: true,
    run: (store, params) => store.write(() => run(store, params)),
  });
}

/** The graph: by names (open_nodes), by a text match (search_nodes, '' matches all) or whole (read_graph). */
function readGraph(store: MemoryStore, params: Params): KgGraph {
  const names = namesParam(params, 'names');
  const query = optionalQueryText(params, 'query');
  return store.read((reader) => {
    if (names !== undefined) return openKnowledgeGraphNodes(reader, names);
    if (query !== undefined) return searchKnowledgeGraph(reader, query);
    return readKnowledgeGraph(reader);
  });
}

export const KNOWLEDGE_GRAPH_METHODS = {
  graphCreateEntities: graphWrite((store, p) => ({
    entities: store.write((tx) => createKgEntities(tx, entitiesParam(p))),
  })),
  graphCreateRelations: graphWrite((store, p) => ({
    relations: store.write((tx) => createKgRelations(tx, relationsParam(p))),
  })),
  graphAddObservations: graphWrite((store, p) => {
    const requests = recordList(p, 'observations').map((record, i) => ({
      entityName: text(record, 'entityName', `observations[${i}]`),
      contents: textList(record, 'contents', `observations[${i}]`),
    }));
    return { results: store.write((tx) => addKgObservations(tx, requests)) };
  }),
  /** Deletes observations, then relations, then entities: each compat delete tool sends one kind. */
  graphDelete: graphWrite((store, p) => {
    const entityNames = namesParam(p, 'entityNames') ?? [];
    const deletions = recordList(p, 'deletions').map((record, i) => ({
      entityName: text(record, 'entityName', `deletions[${i}]`),
      observations: textList(record, 'observations', `deletions[${i}]`),
    }));
    const relations = relationsParam(p);
    store.write((tx) => {
      deleteKgObservations(tx, deletions);
      deleteKgRelations(tx, relations);
      deleteKgEntities(tx, entityNames);
    });
    return { deleted: true };
  }),
  graphRead: defineMethod({ params: UNCHECKED_PARAMS, write: false, run: readGraph }),
};
