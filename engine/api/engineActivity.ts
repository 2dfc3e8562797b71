import type { Logger } from '../host';
import type { MemoryStore } from '../memory/memoryStore';
import { entitiesOfMemories } from './graphPayload';
import type { Params } from './params';

/**
 * What the host just did for a caller, for live views (the Graph panel lights up what a recall
 * touched; views re-read after a write). Reported for every client of the host alike: VS Code
 * itself, MCP bridges, the CLI; the host sends it to its clients too (`engram/activity`), so every
 * process sharing the database sees every recall and write once.
 */
export type EngineActivity = (
  | {
      type: 'recall';
      /** `recall` or `context` (which recalls to build its block). */
      method: string;
      query: string;
      memoryIds: string[];
      entityIds: number[];
      client: string;
    }
  | { type: 'write'; method: string; client: string }
) & {
  /**
   * Set by the process that delivers it to its listener: true when that process made the call
   * (its own writes have already refreshed its views), false for another process's.
   */
  own?: boolean;
};

/** Hears activity with the id of the request that caused it (which tells a process its own). */
export type ActivityListener = (activity: EngineActivity, requestId: string) => void;

/** Bounds on activity a client accepts from its host (a recall returns far fewer ids). */
const MAX_NOTICE_IDS = 2_000;
const MAX_NOTICE_TEXT = 20_000;

const RECALL_METHODS = new Set(['recall', 'context']);

/** The activity a finished call amounts to, or undefined for a read that touched nothing. */
export function activityOf(
  store: MemoryStore,
  method: string,
  params: Params,
  result: unknown,
  write: boolean,
  client: string,
): EngineActivity | undefined {
  if (RECALL_METHODS.has(method) && typeof params['query'] === 'string') {
    const memoryIds = recalledIds(result);
    const entityIds = store.read((r) => entitiesOfMemories(r, memoryIds));
    return { type: 'recall', method, query: params['query'], memoryIds, entityIds, client };
  }
  return write ? { type: 'write', method, client } : undefined;
}

/** Ids in a RecallResult (hits[].memory.id) or a ContextBlock (included[].id). */
function recalledIds(result: unknown): string[] {
  if (typeof result !== 'object' || result === null) return [];
  const r = result as { hits?: Array<{ memory?: { id?: unknown } }>; included?: Array<{ id?: unknown }> };
  const ids = r.hits ? r.hits.map((h) => h.memory?.id) : (r.included ?? []).map((i) => i.id);
  return ids.filter((id): id is string => typeof id === 'string');
}

/**
 * Calls the listeners without letting them break, delay or fail the call that caused it; computes
 * the activity (a read for a recall's entities) only when someone listens.
 */
export function reportActivity(
  listeners: ReadonlySet<ActivityListener>,
  compute: () => EngineActivity | undefined,
  requestId: string,
  logger: Logger,
): void {
  if (listeners.size === 0) return;
  let activity: EngineActivity | undefined;
  try {
    activity = compute();
  } catch (error) {
    logger.warn('could not work out the activity of a call', { error: String(error) });
  }
  if (!activity) return;
  for (const listener of [...listeners]) {
    try {
      listener(activity, requestId);
    } catch (error) {
      logger.warn('an activity listener failed', { error: String(error) });
    }
  }
}

/**
 * Checks activity that arrived from another process (the host's `engram/activity` notification);
 * a string says what was wrong with it.
 */
export function parseActivity(value: unknown): EngineActivity | string {
  if (typeof value !== 'object' || value === null) return 'expected an activity object';
  const a = value as Record<string, unknown>;
  if (!isText(a.method) || !isText(a.client)) return 'expected string method and client';
  if (a.type === 'write') return { type: 'write', method: a.method, client: a.client };
  if (a.type !== 'recall') return `unknown activity type ${JSON.stringify(a.type)}`;
  const { query, memoryIds, entityIds } = a;
  if (!isText(query)) return 'expected a string query';
  if (!Array.isArray(memoryIds) || memoryIds.length > MAX_NOTICE_IDS || !memoryIds.every(isText))
    return `expected memoryIds: at most ${MAX_NOTICE_IDS} strings`;
  if (!Array.isArray(entityIds) || entityIds.length > MAX_NOTICE_IDS || !entityIds.every(Number.isInteger))
    return `expected entityIds: at most ${MAX_NOTICE_IDS} integers`;
  return {
    type: 'recall',
    method: a.method,
    query,
    memoryIds,
    entityIds: entityIds as number[],
    client: a.client,
  };
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_NOTICE_TEXT;
}
