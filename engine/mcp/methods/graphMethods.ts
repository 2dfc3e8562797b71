import { invalidInput } from '../../errors';
import type { MethodSpec } from '../../api/methods';
import { actorOf, optionalNumber, optionalQueryText } from '../../api/params';
import type { Params } from '../../api/params';
import { findEntity } from '../../memory/entityGraph';
import { clampLimit } from '../../memory/memoryQueries';
import type { MemoryStore } from '../../memory/memoryStore';
import { entityRows, matchingEntityIds, relationsFrom, toGraphEntity } from './knowledgeGraph';
import type { GraphEntity, GraphRelation } from './knowledgeGraph';
import {
  addObservations,
  createEntities,
  createRelations,
  deleteEntity,
  deleteObservations,
  deleteRelation,
  requireEntity,
} from './graphWrites';
import { nonEmptyText, recordList, textList } from './paramCheck';

function entitiesParam(params: Params): GraphEntity[] {
  return recordList(params, 'entities').map((record, i) => ({
    name: nonEmptyText(record, 'name', `entities[${i}]`),
    entityType: nonEmptyText(record, 'entityType', `entities[${i}]`),
    observations: textList(record, 'observations', `entities[${i}]`),
  }));
}

function relationsParam(params: Params): GraphRelation[] {
  return recordList(params, 'relations').map((record, i) => ({
    from: nonEmptyText(record, 'from', `relations[${i}]`),
    to: nonEmptyText(record, 'to', `relations[${i}]`),
    relationType: nonEmptyText(record, 'relationType', `relations[${i}]`),
  }));
}

function namesParam(params: Params, field: string): string[] | undefined {
  const value = params[field];
  if (value === undefined || value === null) return undefined;
  return textList(params, field, 'params');
}

function graphWrite<R>(run: (store: MemoryStore, params: Params) => R): MethodSpec<R> {
  return {
    write: true,
    run(store, params) {
      const result = store.write(() => run(store, params));
      // Entities were written outside the linker: its cache of entity ids is stale.
      store.entitiesChanged();
      return result;
    },
  };
}

export interface GraphPage {
  entities: GraphEntity[];
  relations: GraphRelation[];
  total: number;
  /** Offset of the next page of entities, or null. */
  next: number | null;
}

/** Reads the graph: by names (open_nodes), by a text match (search_nodes) or all (read_graph), a page of entities at a time. */
function readGraph(store: MemoryStore, params: Params): GraphPage {
  const names = namesParam(params, 'names');
  const query = optionalQueryText(params, 'query');
  const limit = clampLimit(optionalNumber(params, 'limit') ?? 100);
  const offset = optionalNumber(params, 'offset') ?? 0;
  if (!Number.isInteger(offset) || offset < 0)
    throw invalidInput(`offset must be a whole number >= 0; got ${offset}`);
  return store.read((reader) => {
    const ids =
      names === undefined
        ? matchingEntityIds(reader, query)
        : [...new Set(names.flatMap((name) => findEntity(reader, name)?.id ?? []))];
    const page = ids.slice(offset, offset + limit);
    const whole = names === undefined && query === undefined;
    return {
      entities: entityRows(reader, page).map((row) => toGraphEntity(reader, row)),
      relations: relationsFrom(reader, page, whole ? undefined : ids),
      total: ids.length,
      next: offset + page.length < ids.length ? offset + page.length : null,
    };
  });
}

/**
 * API methods the MCP bridge adds for the official memory server's tools. They are not in
 * engine/api/methods.ts yet: BRIDGE_METHODS is meant to be merged into METHODS; until then the
 * bridge serves them itself when it hosts the database (see bridgeHost.ts).
 */
export const GRAPH_METHODS = {
  graphCreateEntities: graphWrite((store, p) => ({
    entities: store.write((tx, now) => createEntities(store, tx, now, entitiesParam(p), actorOf(p))),
  })),
  graphCreateRelations: graphWrite((store, p) => ({
    relations: store.write((tx, now) => createRelations(tx, now, relationsParam(p))),
  })),
  graphAddObservations: graphWrite((store, p) =>
    store.write((tx) => {
      const requests = recordList(p, 'observations').map((record, i) => ({
        entityName: nonEmptyText(record, 'entityName', `observations[${i}]`),
        contents: textList(record, 'contents', `observations[${i}]`),
        field: `observations[${i}].entityName`,
      }));
      // Every entity must exist before anything is written: a bad request changes nothing.
      const entities = requests.map((r) => requireEntity(tx, r.entityName, r.field));
      return {
        results: requests.map((request, i) => ({
          entityName: request.entityName,
          addedObservations: addObservations(store, tx, entities[i]!, request.contents, actorOf(p)),
        })),
      };
    }),
  ),
  graphDelete: graphWrite((store, p) =>
    store.write((tx) => {
      const actor = actorOf(p);
      const entityNames = namesParam(p, 'entityNames') ?? [];
      const deletions = recordList(p, 'deletions').map((record, i) => ({
        entityName: nonEmptyText(record, 'entityName', `deletions[${i}]`),
        observations: textList(record, 'observations', `deletions[${i}]`),
      }));
      const relations = relationsParam(p);
      let forgotten = 0;
      let relationsDeleted = 0;
      for (const d of deletions)
        forgotten += deleteObservations(store, tx, d.entityName, d.observations, actor);
      for (const r of relations) relationsDeleted += deleteRelation(tx, r);
      for (const name of entityNames) forgotten += deleteEntity(store, tx, name, actor);
      return { forgotten, relationsDeleted };
    }),
  ),
  graphRead: { write: false, run: readGraph } satisfies MethodSpec<GraphPage>,
};
