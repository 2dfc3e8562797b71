import { z } from 'zod';
import { storedText } from '../extract/storedText';
import { knowledgeGraphCache } from '../knowledgeGraph/graphCache';
import type { KgChange } from '../knowledgeGraph/graphCache';
import { openKnowledgeGraphNodes, searchKnowledgeGraph } from '../knowledgeGraph/graphReads';
import type { KgGraph } from '../knowledgeGraph/graphTypes';
import {
  addKgObservations,
  createKgEntities,
  createKgRelations,
  deleteKgEntities,
  deleteKgObservations,
  deleteKgRelations,
} from '../knowledgeGraph/graphWrites';
import type { MemoryStore } from '../memory/memoryStore';
import type { SqlWriter } from '../store/sqlAccess';
import { boundedQuery } from '../retrieval/queryLimit';
import { defineMethod, methodParams } from './defineMethod';

/**
 * The MCP memory server's knowledge graph: the methods behind the official memory server's tools
 * (the compat profile), over its own tables (engine/knowledgeGraph), journaled like every write and
 * apart from Engram's extracted entity graph (graphMethods.ts).
 *
 * The records are the official server's, descriptions included: the compat tools take their input
 * from these schemas. Their text may be empty and has no length or count limit, as there, and the
 * schemas carry no messages of their own, so a compat tool's error reads as the official one's.
 */
export const KG_ENTITY = z.object({
  name: z.string().describe('The name of the entity'),
  entityType: z.string().describe('The type of the entity'),
  observations: z.array(z.string()).describe('An array of observation contents associated with the entity'),
});
export const KG_RELATION = z.object({
  from: z.string().describe('The name of the entity where the relation starts'),
  to: z.string().describe('The name of the entity where the relation ends'),
  relationType: z.string().describe('The type of the relation'),
});
const observationsToAdd = z.object({
  entityName: z.string().describe('The name of the entity to add the observations to'),
  contents: z.array(z.string()).describe('An array of observation contents to add'),
});
const observationsToDelete = z.object({
  entityName: z.string().describe('The name of the entity containing the observations'),
  observations: z.array(z.string()).describe('An array of observations to delete'),
});

export const KG_CREATE_ENTITIES_PARAMS = methodParams({ entities: z.array(KG_ENTITY) });
export const KG_CREATE_RELATIONS_PARAMS = methodParams({ relations: z.array(KG_RELATION) });
export const KG_ADD_OBSERVATIONS_PARAMS = methodParams({ observations: z.array(observationsToAdd) });
/** What graphDelete deletes: each compat delete tool sends one kind, and picks its field from here. */
export const KG_DELETIONS = z.object({
  entityNames: z.array(z.string()).describe('An array of entity names to delete'),
  deletions: z.array(observationsToDelete),
  relations: z.array(KG_RELATION).describe('An array of relations to delete'),
});
export const KG_DELETE_PARAMS = methodParams(KG_DELETIONS.partial().shape);
/** What graphRead reads by: names (open_nodes), a query (search_nodes) or neither (read_graph). */
export const KG_READ_FIELDS = z.object({
  names: z.array(z.string()).describe('An array of entity names to retrieve'),
  query: z
    .string()
    .describe('The search query to match against entity names, types, and observation content'),
});
export const KG_READ_PARAMS = methodParams(KG_READ_FIELDS.partial().shape);

/** The graph: by names (open_nodes), by a text match (search_nodes, '' matches all) or whole (read_graph). */
function readGraph(store: MemoryStore, { names, query }: z.output<typeof KG_READ_PARAMS>): KgGraph {
  const bounded = query === undefined ? undefined : boundedQuery('query', query);
  return store.read((reader) => {
    if (names !== undefined) return openKnowledgeGraphNodes(reader, names);
    if (bounded !== undefined) return searchKnowledgeGraph(reader, bounded);
    return knowledgeGraphCache(store).read(reader, store.db.lastSeq);
  });
}

/**
 * A write in one transaction, reported to the whole-graph cache with what it may have changed. A
 * write that fails empties the cache: its transaction rolls back, and the next commit may be
 * anyone's.
 */
function graphWrite<T>(store: MemoryStore, change: KgChange, write: (tx: SqlWriter) => T): T {
  const cache = knowledgeGraphCache(store);
  // Pending derived rows are written first: their commit is not this write's change.
  store.settle();
  const before = store.db.lastSeq;
  let result: T;
  try {
    result = store.write(write);
  } catch (error) {
    cache.forget();
    throw error;
  }
  cache.noteWrite(before, store.db.lastSeq, change);
  return result;
}

/** One transaction per call: all of a call's changes are kept, or none (a failed add_observations). */
export const KNOWLEDGE_GRAPH_METHODS = {
  graphCreateEntities: defineMethod({
    params: KG_CREATE_ENTITIES_PARAMS,
    write: true,
    run: ({ store }, p) => ({
      entities: graphWrite(store, { created: true }, (tx) => createKgEntities(tx, p.entities)),
    }),
  }),
  graphCreateRelations: defineMethod({
    params: KG_CREATE_RELATIONS_PARAMS,
    write: true,
    run: ({ store }, p) => ({
      relations: graphWrite(store, { relations: true }, (tx) => createKgRelations(tx, p.relations)),
    }),
  }),
  graphAddObservations: defineMethod({
    params: KG_ADD_OBSERVATIONS_PARAMS,
    write: true,
    run: ({ store }, p) => ({
      results: graphWrite(store, { names: p.observations.map((o) => storedText(o.entityName)) }, (tx) =>
        addKgObservations(tx, p.observations),
      ),
    }),
  }),
  /** Deletes observations, then relations, then entities. */
  graphDelete: defineMethod({
    params: KG_DELETE_PARAMS,
    write: true,
    run: ({ store }, p) => {
      const change: KgChange = {
        names: (p.deletions ?? []).map((d) => storedText(d.entityName)),
        relations: (p.relations ?? []).length > 0,
        deleted: (p.entityNames ?? []).length > 0,
      };
      graphWrite(store, change, (tx) => {
        deleteKgObservations(tx, p.deletions ?? []);
        deleteKgRelations(tx, p.relations ?? []);
        deleteKgEntities(tx, p.entityNames ?? []);
      });
      return { deleted: true };
    },
  }),
  graphRead: defineMethod({
    params: KG_READ_PARAMS,
    write: false,
    run: ({ store }, p) => readGraph(store, p),
  }),
};
