import type { Logger } from '../host';
import type { MemoryStore } from '../memory/memoryStore';
import { entitiesOfMemories } from './graphPayload';
import type { Params } from './params';

/**
 * What the host just did for a caller, for live views (the Graph panel lights up what a recall
 * touched; views re-read after a write). Reported for every client of the host alike: VS Code
 * itself, MCP bridges, the CLI.
 */
export type EngineActivity =
  | {
      type: 'recall';
      /** `recall` or `context` (which recalls to build its block). */
      method: string;
      query: string;
      memoryIds: string[];
      entityIds: number[];
      client: string;
    }
  | { type: 'write'; method: string; client: string };

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

/** Calls the listener without letting it break, delay or fail the call that caused it. */
export function reportActivity(
  listener: ((activity: EngineActivity) => void) | undefined,
  compute: () => EngineActivity | undefined,
  logger: Logger,
): void {
  if (!listener) return;
  try {
    const activity = compute();
    if (activity) listener(activity);
  } catch (error) {
    logger.warn('an activity listener failed', { error: String(error) });
  }
}
