import type { z } from 'zod';
import { notFound } from '../errors';
import { backlinks, findEntity, relatedEntities, searchEntities } from '../memory/entityGraph';
import { evictInjected, injectedIds, markInjected } from '../memory/injectionLedger';
import type { MemoryStore } from '../memory/memoryStore';
import type { EngineContext } from './engineContext';
import {
  annotationsOf,
  clampLimit,
  currentMemory,
  listMemories,
  memoriesAsOf,
  resolveId,
  versionsOf,
} from '../memory/memoryQueries';
import type { Actor } from '../memory/types';
import type { EmbeddedText } from '../memory/novelty';
import { recall } from '../retrieval/recall';
import { recallWithDetail } from '../retrieval/drillDown';
import { buildContext, markContextInjected } from '../retrieval/contextBuilder';
import { boundedQuery } from '../retrieval/queryLimit';
import { actorOf } from './params';
import { isVisible, viewerOf } from '../memory/visibility';
import { defineMethod } from './defineMethod';
import {
  ANNOTATE_PARAMS,
  AS_OF_PARAMS,
  EDIT_PARAMS,
  ENTITIES_PARAMS,
  EXPORT_PARAMS,
  ID_PARAMS,
  IMPORT_PARAMS,
  INJECTION_EVICT_PARAMS,
  INJECTION_PARAMS,
  INVALIDATE_PARAMS,
  LIST_PARAMS,
  MERGE_ENTITIES_PARAMS,
  NO_PARAMS,
  RELATED_PARAMS,
  REMEMBER_MANY_PARAMS,
  REMEMBER_PARAMS,
  TOUCH_SESSION_PARAMS,
} from './memoryParams';
import { exportMemories, importMemories } from './exchangeMethods';
import { CONTEXT_LEVELS_PARAMS, CONTEXT_PARAMS, RECALL_PARAMS } from './retrievalParams';
import { buildLevelledContext } from '../retrieval/contextLevels';
import { collectStats } from './stats';
import { REMEMBER_RESULT, REMEMBER_RESULTS } from './requestRecords';
import { acceptedMemories, rememberBatch } from './rememberBatch';
import { CODE_METHODS } from './codeMethods';
import { DRIFT_METHODS } from './driftMethods';
import { GRAPH_METHODS } from './graphMethods';
import { TIMELINE_METHODS } from './timelineMethods';
import { EVENT_METHODS } from './eventMethods';
import { KNOWLEDGE_GRAPH_METHODS } from './knowledgeGraphMethods';
import { LIFECYCLE_METHODS } from './lifecycleMethods';
import { HEALTH_METHODS } from './healthMethods';
import { CAPTURE_METHODS } from './captureMethods';
import { OBSERVATION_METHODS } from './observationMethods';
import { rewriteEdited, rewriteSuperseded, rewriteSupersededInBatch, TEAM_METHODS } from './teamMethods';
import { LINK_METHODS } from './linkMethods';
import { SKILL_METHODS } from './skillMethods';
import { REPLICA_METHODS } from './replicaMethods';

/**
 * Embeds what is about to be remembered (waiting for the model if it is still loading). Inputs
 * without usable content get no vector: validation in the transaction reports them.
 */
async function embedContents(
  engine: EngineContext,
  inputs: ReadonlyArray<{ content: string }>,
): Promise<Array<EmbeddedText | undefined>> {
  await engine.ensureVectors();
  const vectors = engine.vectors;
  if (!vectors) return inputs.map(() => undefined);
  const contents = inputs.map(({ content }) => (content.trim() !== '' ? content : undefined));
  const present = contents.filter((c): c is string => c !== undefined);
  const embedded = await vectors.embedForWrite(present);
  let next = 0;
  return contents.map((c) => (c === undefined ? undefined : embedded[next++]));
}

/** `readOnly: true`: the caller promised to change nothing (an MCP read-only tool), so no access is noted. */
const readOnlyCall = (p: { readOnly?: boolean | undefined }) => p.readOnly === true;

/**
 * The memory a write names, as its caller sees it: another agent's private memory is not found
 * (visibility.ts), so no agent edits, forgets or pins what it cannot read.
 */
function visibleId(store: MemoryStore, p: { id: string; actor?: { agent?: string | null } }): string {
  return store.read((r) => resolveId(r, p.id, viewerOf(p)));
}

/** A method that takes a memory id and writes: forget, restore, archive, pin, unpin. */
function idWrite<R>(run: (store: MemoryStore, id: string, actor: Actor) => R) {
  return defineMethod({
    params: ID_PARAMS,
    write: true,
    run: ({ store }, p) => run(store, visibleId(store, p), actorOf(p)),
  });
}

/**
 * The engine's whole callable surface, as one table: the host executes these for local callers and
 * for clients over IPC, so the CLI, the MCP bridge and VS Code see exactly the same behaviour.
 */
export const METHODS = {
  remember: defineMethod({
    params: REMEMBER_PARAMS,
    write: true,
    prepare: async (engine, p) => (await embedContents(engine, [p]))[0],
    run: ({ store }, { actor, readOnly: _readOnly, ...input }, embedded) =>
      store.remember(input, actorOf({ actor }), embedded, true),
    resultRecord: REMEMBER_RESULT,
    after: rewriteSuperseded,
  }),
  /** One result per memory, in order; a bad memory is rejected alone (rememberBatch.ts). */
  rememberMany: defineMethod({
    params: REMEMBER_MANY_PARAMS,
    write: true,
    prepare: (engine, p) => embedContents(engine, acceptedMemories(p.memories)),
    run: ({ store }, p, embedded) => rememberBatch(store, p.memories, actorOf(p), embedded),
    resultRecord: REMEMBER_RESULTS,
    after: rewriteSupersededInBatch,
  }),
  get: defineMethod({
    params: ID_PARAMS,
    write: false,
    run: ({ store }, p) =>
      store.read((r) => {
        const id = resolveId(r, p.id, viewerOf(p));
        const memory = currentMemory(r, id);
        if (!readOnlyCall(p)) store.noteRead({ type: 'read', memoryId: id, ...actorOf(p) });
        return { memory, annotations: annotationsOf(r, id) };
      }),
  }),
  list: defineMethod({
    params: LIST_PARAMS,
    write: false,
    run: ({ store }, { actor, readOnly: _readOnly, ...options }) =>
      store.read((r) => listMemories(r, options, viewerOf({ actor }))),
  }),
  edit: defineMethod({
    params: EDIT_PARAMS,
    write: true,
    run: ({ store }, p) => store.edit(visibleId(store, p), p.changes ?? {}, actorOf(p)),
    after: rewriteEdited,
  }),
  annotate: defineMethod({
    params: ANNOTATE_PARAMS,
    write: true,
    run: ({ store }, p) => store.annotate(visibleId(store, p), p.text, actorOf(p)),
  }),
  invalidate: defineMethod({
    params: INVALIDATE_PARAMS,
    write: true,
    run: ({ store }, p) => store.invalidate(visibleId(store, p), p.reason, actorOf(p), p.validTo),
    after: rewriteEdited,
  }),
  forget: idWrite((store, id, actor) => store.forget(id, actor)),
  restore: idWrite((store, id, actor) => store.restore(id, actor)),
  archive: idWrite((store, id, actor) => store.archive(id, actor)),
  pin: idWrite((store, id, actor) => store.pin(id, true, actor)),
  unpin: idWrite((store, id, actor) => store.pin(id, false, actor)),
  history: defineMethod({
    params: ID_PARAMS,
    write: false,
    run: ({ store }, p) =>
      store.read((r) => {
        const id = resolveId(r, p.id, viewerOf(p));
        return { versions: versionsOf(r, id), annotations: annotationsOf(r, id) };
      }),
  }),
  asOf: defineMethod({
    params: AS_OF_PARAMS,
    write: false,
    run: ({ store }, p) =>
      store.read((r) =>
        memoriesAsOf(r, p.time, p.axis ?? 'transaction', p.limit ?? 100, p.layer, viewerOf(p)),
      ),
  }),
  recall: defineMethod({
    params: RECALL_PARAMS,
    write: false,
    run: async (engine, p) => {
      await engine.ensureVectors();
      // Without `detail`, a consolidated hit opens only onto members that match better than it;
      // includeInactive and asOf rank the members themselves already.
      const history = p.includeInactive === true || p.asOf !== undefined;
      const open = p.detail === true ? 'all' : p.detail === false || history ? undefined : 'better';
      const options = {
        query: boundedQuery('query', p.query),
        k: p.k,
        channels: p.channels,
        layer: p.layer,
        includeInactive: p.includeInactive,
        asOf: p.asOf,
        session: actorOf(p).session,
        viewer: viewerOf(p),
        explain: p.explain,
        noteAccess: p.readOnly !== true,
      };
      return open
        ? recallWithDetail(engine, options, engine.vectors, open)
        : recall(engine, options, engine.vectors);
    },
  }),
  context: defineMethod({
    params: CONTEXT_PARAMS,
    write: true,
    prepare: (engine, p) =>
      buildContext(engine, {
        query: boundedQuery('query', p.query),
        budget: p.budget,
        session: actorOf(p).session,
        viewer: viewerOf(p),
        conversation: p.conversation,
        k: p.k,
      }),
    run: ({ store }, p, block) => {
      store.write((tx, now) => markContextInjected(tx, p.conversation ?? actorOf(p).session, block, now));
      return block;
    },
  }),
  /** The graduated L0-L3 block; a read: it records the search's access, not an injection. */
  contextLevels: defineMethod({
    params: CONTEXT_LEVELS_PARAMS,
    write: false,
    run: (engine, p) =>
      buildLevelledContext(engine, {
        query: p.query === undefined ? undefined : boundedQuery('query', p.query),
        budget: p.budget,
        session: actorOf(p).session,
        viewer: viewerOf(p),
        noteAccess: p.readOnly !== true,
      }),
  }),
  entities: defineMethod({
    params: ENTITIES_PARAMS,
    write: false,
    run: ({ store }, p) =>
      store.read((r) =>
        searchEntities(
          r,
          p.query === undefined ? undefined : boundedQuery('query', p.query),
          clampLimit(p.limit ?? 50),
          viewerOf(p),
        ),
      ),
  }),
  related: defineMethod({
    params: RELATED_PARAMS,
    write: false,
    run: ({ store }, p) =>
      store.read((r) => {
        const entity = findEntity(r, p.entity);
        if (!entity) throw notFound(`no entity named "${p.entity}"`);
        const limit = clampLimit(p.limit ?? 25);
        const viewer = viewerOf(p);
        const memories = backlinks(r, entity.id, limit)
          .map((link) => ({ ...link, memory: currentMemory(r, link.memoryId) }))
          .filter((link) => isVisible(viewer, link.memory));
        return { entity, related: relatedEntities(r, entity, p.hops ?? 1, limit), memories };
      }),
  }),
  mergeEntities: defineMethod({
    params: MERGE_ENTITIES_PARAMS,
    write: true,
    run: ({ store }, p) => store.mergeEntities(p.from, p.into),
  }),
  injectionCheck: defineMethod({
    params: INJECTION_PARAMS,
    write: false,
    run: ({ store }, p) => store.read((r) => ({ injected: injectedIds(r, p.conversation, p.ids) })),
  }),
  injectionMark: defineMethod({
    params: INJECTION_PARAMS,
    write: true,
    run: ({ store }, p) =>
      store.write((tx, now) => ({ marked: markInjected(tx, p.conversation, p.ids, now) })),
  }),
  injectionEvict: defineMethod({
    params: INJECTION_EVICT_PARAMS,
    write: true,
    run: ({ store }, p) => store.write((tx) => ({ evicted: evictInjected(tx, p.conversation, p.ids) })),
  }),
  touchSession: defineMethod({
    params: TOUCH_SESSION_PARAMS,
    write: true,
    run: ({ store }, p) => {
      store.touch(p.session, actorOf(p).agent ?? null);
      return { ok: true };
    },
  }),
  export: defineMethod({
    params: EXPORT_PARAMS,
    write: false,
    run: ({ store }, p) => exportMemories(store, p),
  }),
  import: defineMethod({
    params: IMPORT_PARAMS,
    write: true,
    run: ({ store }, p) => importMemories(store, p),
  }),
  stats: defineMethod({
    params: NO_PARAMS,
    write: false,
    run: (engine) => engine.store.read((r) => collectStats(r, engine)),
  }),
  ...CODE_METHODS,
  ...DRIFT_METHODS,
  ...GRAPH_METHODS,
  ...TIMELINE_METHODS,
  ...EVENT_METHODS,
  ...KNOWLEDGE_GRAPH_METHODS,
  ...LIFECYCLE_METHODS,
  ...HEALTH_METHODS,
  ...CAPTURE_METHODS,
  ...OBSERVATION_METHODS,
  ...TEAM_METHODS,
  ...LINK_METHODS,
  ...SKILL_METHODS,
  ...REPLICA_METHODS,
} as const;

export type MethodName = keyof typeof METHODS;
/** What a host may send: the input of the method's schema. */
export type MethodParams<M extends MethodName> = z.input<(typeof METHODS)[M]['params']>;
export type MethodResult<M extends MethodName> = Awaited<ReturnType<(typeof METHODS)[M]['run']>>;

export function isMethodName(name: string): name is MethodName {
  return Object.prototype.hasOwnProperty.call(METHODS, name);
}
