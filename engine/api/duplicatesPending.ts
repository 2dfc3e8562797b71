import { DEDUP_LAYERS, planDedup } from '../lifecycle/dedupPass';
import { DEFAULT_NEAR_DUPLICATE_THRESHOLD } from '../memory/novelty';
import type { SqlReader } from '../store/sqlAccess';
import type { EngineContext } from './engineContext';

/**
 * A counted dedup plan is reused for this long even when memories changed since: planning asks
 * the vector index for every memory's neighbours, too much to redo for each look at a dashboard.
 * @default 10 minutes
 */
export const DUPLICATES_RECOUNT_MS = 10 * 60 * 1000;
/**
 * Above this many memories dedup could merge, the panel does not count: planning holds the
 * engine's thread (its awaits do not yield to the event loop below the HNSW crossover): measured
 * with USE-lite, 260 ms at 500 memories and 952 ms at 1,000. `engram dedup` lists them instead.
 * @default 500
 */
export const DUPLICATES_MAX_MEMORIES = 500;

/** What `dedup` would merge now, as the Analytics tab shows it. */
export interface DuplicatesPending {
  /** Pairs a dedup run would merge; null when they were not counted (see `reason`). */
  pairs: number | null;
  /** When they were counted (engine clock), null when never. */
  countedAt: number | null;
  /** True when memories changed since the count (it is at most DUPLICATES_RECOUNT_MS old). */
  stale: boolean;
  /** Why there is no count, when there is none. */
  reason?: string;
}

interface Counted {
  seq: number;
  at: number;
  pairs: number;
}

const counts = new WeakMap<EngineContext, Counted>();

/**
 * The dedup dry run's pair count, cached per engine: recounted only after the database changed
 * (its last transaction number) and then at most every DUPLICATES_RECOUNT_MS, and only up to
 * DUPLICATES_MAX_MEMORIES. Never loads the embedding model: without vectors already loaded there
 * is nothing to count, and it says so.
 */
export async function duplicatesPending(
  engine: EngineContext,
  maxMemories = DUPLICATES_MAX_MEMORIES,
): Promise<DuplicatesPending> {
  const { store, vectors } = engine;
  const seq = store.db.stats().seq;
  const now = store.clock();
  const last = counts.get(engine);
  if (last && (last.seq === seq || now - last.at < DUPLICATES_RECOUNT_MS))
    return { pairs: last.pairs, countedAt: last.at, stale: last.seq !== seq };
  const none = (reason: string): DuplicatesPending => ({
    pairs: null,
    countedAt: null,
    stale: false,
    reason,
  });
  if (!vectors) return none('counted once the embedding model has loaded (engram.embedding)');
  const memories = store.read(mergeable);
  if (memories > maxMemories)
    return none(`not counted above ${maxMemories} memories (${memories}): run engram dedup`);
  const pairs = (await planDedup(store, vectors, DEFAULT_NEAR_DUPLICATE_THRESHOLD)).length;
  // The number from before planning: a write while it ran makes the count stale, as it should.
  counts.set(engine, { seq, at: now, pairs });
  return { pairs, countedAt: now, stale: false };
}

function mergeable(reader: SqlReader): number {
  return (
    reader.value<number>(
      `SELECT count(*) FROM memories WHERE superseded_at IS NULL AND status = 'active'
       AND layer IN (${DEDUP_LAYERS.map(() => '?').join(', ')})`,
      DEDUP_LAYERS,
    ) ?? 0
  );
}
