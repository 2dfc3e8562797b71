import { readFileSync, writeFileSync } from 'node:fs';
import type { z } from 'zod';
import { EngramError, invalidInput, notFound } from '../errors';
import { exportLines, importEngramLines, parseEngramLines } from '../exchange/engramJsonl';
import { renderMarkdown } from '../exchange/markdownExport';
import { importMcpMemory } from '../exchange/mcpMemoryImport';
import { backlinks, findEntity, relatedEntities, searchEntities } from '../memory/entityGraph';
import { evictInjected, injectedIds, markInjected } from '../memory/injectionLedger';
import type { MemoryStore } from '../memory/memoryStore';
import {
  annotationsOf,
  clampLimit,
  currentMemory,
  listMemories,
  memoriesAsOf,
  resolveId,
  versionsOf,
} from '../memory/memoryQueries';
import { LAYERS, STATUSES } from '../memory/types';
import type { RememberInput } from '../memory/types';
import type { EmbeddedText } from '../memory/novelty';
import { oneOf, parseTime } from '../memory/validate';
import { indexMissing } from '../retrieval/lexicalIndex';
import { recall } from '../retrieval/recall';
import { buildContext, markContextInjected } from '../retrieval/contextBuilder';
import { schemaVersion } from '../store/migrate';
import {
  actorOf,
  optionalBoolean,
  optionalNumber,
  optionalQueryText,
  optionalString,
  queryText,
  stringList,
  text,
} from './params';
import type { Params } from './params';
import { defineMethod, UNCHECKED_PARAMS } from './defineMethod';
import { CONTEXT_PARAMS, RECALL_PARAMS } from './retrievalParams';
import { collectStats } from './stats';
import { REMEMBER_RESULTS } from './requestRecords';
import type { ResultRecord } from './requestRecords';
import { CODE_METHODS } from './codeMethods';
import { DRIFT_METHODS } from './driftMethods';
import { GRAPH_METHODS } from './graphMethods';
import { TIMELINE_METHODS } from './timelineMethods';
import { EVENT_METHODS } from './eventMethods';
import { KNOWLEDGE_GRAPH_METHODS } from './knowledgeGraphMethods';

function method<R>(write: boolean, run: (store: MemoryStore, params: Params) => R) {
  return defineMethod({ params: UNCHECKED_PARAMS, write, run: (store, params) => run(store, params) });
}

function preparedWrite<P, R>(
  prepare: (store: MemoryStore, params: Params) => Promise<P>,
  run: (store: MemoryStore, params: Params, prepared: P) => R,
  resultRecord?: ResultRecord<R>,
) {
  return defineMethod({
    params: UNCHECKED_PARAMS,
    write: true,
    prepare,
    run,
    ...(resultRecord ? { resultRecord } : {}),
  });
}

/**
 * Embeds what is about to be remembered (waiting for the model if it is still loading). Inputs
 * without usable content get no vector: validation in the transaction reports them.
 */
async function embedContents(
  store: MemoryStore,
  inputs: unknown[],
): Promise<Array<EmbeddedText | undefined>> {
  await store.ensureVectors();
  const contents = inputs.map((input) => {
    const content = typeof input === 'object' && input !== null ? (input as Params)['content'] : undefined;
    return typeof content === 'string' && content.trim() !== '' ? content : undefined;
  });
  const present = contents.filter((c): c is string => c !== undefined);
  const embedded = await store.embedForWrite(present);
  let next = 0;
  return contents.map((c) => (c === undefined ? undefined : embedded[next++]));
}

/** `readOnly: true`: the caller promised to change nothing (an MCP read-only tool), so no access is noted. */
const readOnlyCall = (p: Params) => optionalBoolean(p, 'readOnly') === true;

const layerParam = (p: Params) => (p['layer'] === undefined ? undefined : oneOf('layer', p['layer'], LAYERS));

/**
 * The engine's whole callable surface, as one table: the host executes these for local callers and
 * for clients over IPC, so the CLI, the MCP bridge and VS Code see exactly the same behaviour.
 */
export const METHODS = {
  remember: preparedWrite(
    async (store, p) => (await embedContents(store, [p]))[0],
    (store, p, embedded) => store.remember(p as unknown as RememberInput, actorOf(p), embedded),
  ),
  rememberMany: preparedWrite(
    (store, p) => {
      if (!Array.isArray(p['memories'])) throw invalidInput('memories must be a list');
      return embedContents(store, p['memories'] as unknown[]);
    },
    (store, p, embedded) => store.rememberMany(p['memories'] as RememberInput[], actorOf(p), embedded),
    REMEMBER_RESULTS,
  ),
  get: method(false, (store, p) =>
    store.read((r) => {
      const id = resolveId(r, text(p, 'id'));
      const memory = currentMemory(r, id);
      if (!readOnlyCall(p)) store.noteRead({ type: 'read', memoryId: id, ...actorOf(p) });
      return { memory, annotations: annotationsOf(r, id) };
    }),
  ),
  list: method(false, (store, p) =>
    store.read((r) =>
      listMemories(r, {
        layer: layerParam(p),
        kind: optionalString(p, 'kind'),
        status:
          p['status'] === undefined ? undefined : oneOf('status', p['status'], [...STATUSES, 'all'] as const),
        tag: optionalString(p, 'tag'),
        agent: optionalString(p, 'agent'),
        session: optionalString(p, 'session'),
        pinned: optionalBoolean(p, 'pinned'),
        limit: optionalNumber(p, 'limit'),
        offset: optionalNumber(p, 'offset'),
      }),
    ),
  ),
  edit: method(true, (store, p) => store.edit(text(p, 'id'), (p['changes'] ?? {}) as Params, actorOf(p))),
  annotate: method(true, (store, p) => store.annotate(text(p, 'id'), text(p, 'text'), actorOf(p))),
  invalidate: method(true, (store, p) =>
    store.invalidate(
      text(p, 'id'),
      text(p, 'reason'),
      actorOf(p),
      p['validTo'] as number | string | undefined,
    ),
  ),
  forget: method(true, (store, p) => store.forget(text(p, 'id'), actorOf(p))),
  restore: method(true, (store, p) => store.restore(text(p, 'id'), actorOf(p))),
  archive: method(true, (store, p) => store.archive(text(p, 'id'), actorOf(p))),
  pin: method(true, (store, p) => store.pin(text(p, 'id'), true, actorOf(p))),
  unpin: method(true, (store, p) => store.pin(text(p, 'id'), false, actorOf(p))),
  history: method(false, (store, p) =>
    store.read((r) => {
      const id = resolveId(r, text(p, 'id'));
      return { versions: versionsOf(r, id), annotations: annotationsOf(r, id) };
    }),
  ),
  asOf: method(false, (store, p) =>
    store.read((r) =>
      memoriesAsOf(
        r,
        parseTime('time', p['time']),
        p['axis'] === undefined ? 'transaction' : oneOf('axis', p['axis'], ['transaction', 'valid'] as const),
        optionalNumber(p, 'limit') ?? 100,
        layerParam(p),
      ),
    ),
  ),
  recall: defineMethod({
    params: RECALL_PARAMS,
    write: false,
    run: async (store, p) => {
      await store.ensureVectors();
      return recall(
        store,
        {
          query: queryText(p, 'query'),
          k: p.k,
          channels: p.channels,
          layer: p.layer,
          includeInactive: p.includeInactive,
          asOf: p.asOf === undefined ? undefined : parseTime('asOf', p.asOf),
          session: actorOf(p).session,
          explain: p.explain,
          noteAccess: p.readOnly !== true,
        },
        store.vectors,
      );
    },
  }),
  context: defineMethod({
    params: CONTEXT_PARAMS,
    write: true,
    prepare: (store, p) =>
      buildContext(store, {
        query: queryText(p, 'query'),
        budget: p.budget,
        session: actorOf(p).session,
        conversation: p.conversation,
        k: p.k,
      }),
    run: (store, p, block) => {
      store.write((tx, now) => markContextInjected(tx, p.conversation ?? actorOf(p).session, block, now));
      return block;
    },
  }),
  entities: method(false, (store, p) =>
    store.read((r) =>
      searchEntities(r, optionalQueryText(p, 'query'), clampLimit(optionalNumber(p, 'limit') ?? 50)),
    ),
  ),
  related: method(false, (store, p) =>
    store.read((r) => {
      const name = text(p, 'entity');
      const entity = findEntity(r, name);
      if (!entity) throw notFound(`no entity named "${name}"`);
      const hops = optionalNumber(p, 'hops') ?? 1;
      if (!Number.isInteger(hops) || hops < 1 || hops > 4)
        throw invalidInput(`hops must be 1 to 4; got ${hops}`);
      const limit = clampLimit(optionalNumber(p, 'limit') ?? 25);
      const memories = backlinks(r, entity.id, limit).map((link) => ({
        ...link,
        memory: currentMemory(r, link.memoryId),
      }));
      return { entity, related: relatedEntities(r, entity, hops, limit), memories };
    }),
  ),
  mergeEntities: method(true, (store, p) => store.mergeEntities(text(p, 'from'), text(p, 'into'))),
  injectionCheck: method(false, (store, p) =>
    store.read((r) => ({ injected: injectedIds(r, text(p, 'conversation'), stringList(p, 'ids')) })),
  ),
  injectionMark: method(true, (store, p) =>
    store.write((tx, now) => ({
      marked: markInjected(tx, text(p, 'conversation'), stringList(p, 'ids'), now),
    })),
  ),
  injectionEvict: method(true, (store, p) =>
    store.write((tx) => ({
      evicted: evictInjected(
        tx,
        text(p, 'conversation'),
        p['ids'] === undefined ? undefined : stringList(p, 'ids'),
      ),
    })),
  ),
  touchSession: method(true, (store, p) => {
    store.touch(text(p, 'session'), actorOf(p).agent ?? null);
    return { ok: true };
  }),
  export: method(false, (store, p) => {
    const format =
      p['format'] === undefined ? 'jsonl' : oneOf('format', p['format'], ['jsonl', 'md'] as const);
    const now = store.clock();
    const body = store.read((r) => {
      if (format === 'md') {
        const all = [];
        for (let offset: number | null = 0; offset !== null;) {
          const page = listMemories(r, { status: 'active', limit: 10_000, offset });
          all.push(...page.items);
          offset = page.next;
        }
        return renderMarkdown(all, 'Engram memories', now);
      }
      return [...exportLines(r, schemaVersion(r), now)].join('\n') + '\n';
    });
    const file = optionalString(p, 'file');
    if (file === undefined) return { format, text: body };
    try {
      writeFileSync(file, body, { mode: 0o600 });
    } catch (error) {
      // An expected failure (a missing folder, no permission): one line, not a logged crash.
      throw invalidInput(`cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    return { format, file, bytes: Buffer.byteLength(body) };
  }),
  import: method(true, (store, p) => {
    const from =
      p['from'] === undefined ? 'engram' : oneOf('from', p['from'], ['engram', 'mcp-memory'] as const);
    const file = optionalString(p, 'file');
    let body = optionalString(p, 'text');
    if (body === undefined) {
      if (file === undefined) throw invalidInput('import needs a file or text');
      try {
        body = readFileSync(file, 'utf8');
      } catch (error) {
        throw new EngramError(
          'NOT_FOUND',
          `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
        );
      }
    }
    const lines = body.split(/\r?\n/);
    if (from === 'mcp-memory') return { from, ...importMcpMemory(store, lines) };
    const parsed = store.read((r) => parseEngramLines(r, lines, store.limits));
    const counts = store.write((tx) => {
      const imported = importEngramLines(tx, parsed);
      indexMissing(tx);
      store.textChanged();
      return imported;
    });
    store.entitiesChanged();
    return { from, counts };
  }),
  stats: method(false, (store) => store.read((r) => collectStats(r, store))),
  ...CODE_METHODS,
  ...DRIFT_METHODS,
  ...GRAPH_METHODS,
  ...TIMELINE_METHODS,
  ...EVENT_METHODS,
  ...KNOWLEDGE_GRAPH_METHODS,
} as const;

export type MethodName = keyof typeof METHODS;
/** What a host may send: the input of the method's schema. */
export type MethodParams<M extends MethodName> = z.input<(typeof METHODS)[M]['params']>;
export type MethodResult<M extends MethodName> = Awaited<ReturnType<(typeof METHODS)[M]['run']>>;

export function isMethodName(name: string): name is MethodName {
  return Object.prototype.hasOwnProperty.call(METHODS, name);
}
