import type { MemoryStore } from '../memory/memoryStore';
import { allForIds } from '../store/idLists';
import type { SqlReader } from '../store/sqlAccess';
import { CLUSTER_RULE } from './candidateClusters';
import { applyConsolidation, planConsolidation } from './consolidation';
import type { ConsolidationCluster } from './consolidation';
import type { ConsolidationPlanner } from './consolidationPlan';
import { summaryRequests, withProvidedSummaries } from './modelSummaries';
import type { ProvidedSummary } from './summariser';

/**
 * Consolidation as a background job (issue 21, section 3): the plan of consolidation.ts applied a
 * few clusters at a time, each slice its own transaction of about `sliceMs` of work, with the event
 * loop free between slices. A kill between slices leaves every cluster either applied or not: the
 * next run plans again (applied members are no longer candidates) and does the rest.
 *
 * Incremental: a run starts only when memories changed (a version row) or were accessed (a read or
 * recall event) after the last completed run's watermark, or that run is older than `staleAfterMs`
 * (faded episodes fade with time alone). The watermark moves only with the run's final slice, so
 * an interrupted run is never mistaken for a completed one.
 */
export interface ConsolidationRunOptions {
  dryRun: boolean;
  /** Work per slice before its commit (a few ms more) and the yield. @default 20 */
  sliceMs?: number;
  /** A completed run older than this runs again even when nothing changed. @default one day */
  staleAfterMs?: number;
  /** Runs even when nothing changed since the last run (the `consolidate` method). @default false */
  force?: boolean;
  /**
   * Plans off this thread when it can (consolidationPlan.ts, a worker on a copy of the database);
   * omitted, or when it declines or fails, the plan is made here, in one stretch.
   * @default undefined: planned here
   */
  plan?: ConsolidationPlanner;
  /** Aborted: the run stops before its next slice (the host is closing); the rest is the next run's. */
  signal?: AbortSignal;
  /**
   * A dry run: each relevant or faded cluster carries what would be sent to a language model for
   * it (`request`, modelSummaries.ts). @default false
   */
  summaryRequests?: boolean;
  /**
   * Summaries a model wrote for the clusters of an earlier dry run (summariser.ts), matched by
   * members: each fit one replaces its cluster's extractive gist, and every summarised cluster
   * records which it got and why (`origin`). Omitted: extractive, nothing recorded.
   */
  summaries?: readonly ProvidedSummary[];
  /** Called after each committed slice (tests stop the process here). */
  afterSlice?: (slice: number) => void;
}

export interface ConsolidationRunResult {
  dryRun: boolean;
  /** Nothing changed since the last run: nothing was planned. */
  skipped: boolean;
  /** Stopped by `signal` before its last slice: no run event, the watermark stays. */
  interrupted: boolean;
  clusters: ConsolidationCluster[];
  /** Where the plan was made: in a worker, on a copy of the database, or on this thread. */
  plannedIn: 'worker' | 'thread';
  created: string[];
  /** Existing procedural memories a recurring pattern confirmed instead of a new memory. */
  confirmed: string[];
  /** Clusters applied, by reason (a pattern that confirmed counts under `pattern` too). */
  byReason: Record<ConsolidationCluster['reason'], number>;
  /** Members superseded by what was created or confirmed. */
  touched: number;
  slices: number;
  /** Time spent planning and applying, without the pauses between slices (ms). */
  workMs: number;
  /** The longest single stretch of work: the plan or one slice (ms). */
  longestMs: number;
  /** This thread's part of the plan: all of it, or only taking the copy for the worker (ms). */
  planMs: number;
}

/** Where a completed run left off: the newest version row and access event it had seen. */
export interface ConsolidationWatermark {
  versionRow: number;
  accessSeq: number;
  at: number;
}

const DEFAULT_SLICE_MS = 20;
/**
 * Members a slice supersedes at most, beyond its first cluster. The deadline is checked between
 * clusters, and a cluster's cost grows with its members (a faded 50-member cluster is about 45-55
 * ms with its commit at 100k memories, a 4-member one about 5 ms): a slice that took several large
 * clusters before its deadline ran 134 ms. So a slice takes the next cluster only while the
 * members stay within one full cluster's worth (the clusters' own cap, candidateClusters.ts).
 */
export const SLICE_MEMBERS = CLUSTER_RULE.maxMembers;
const NOT_SYNCED_HERE = { durable: false };
const DAY = 24 * 60 * 60 * 1000;
const LIFECYCLE = 'engram-lifecycle';

/** One run at a time per store: a second caller waits for the first to finish, then runs. */
const running = new WeakMap<MemoryStore, Promise<unknown>>();

export function runConsolidation(
  store: MemoryStore,
  options: ConsolidationRunOptions,
): Promise<ConsolidationRunResult> {
  const before = running.get(store) ?? Promise.resolve();
  const run = before.catch(() => undefined).then(() => consolidateInSlices(store, options));
  running.set(store, run);
  return run;
}

async function consolidateInSlices(
  store: MemoryStore,
  options: ConsolidationRunOptions,
): Promise<ConsolidationRunResult> {
  const sliceMs = options.sliceMs ?? DEFAULT_SLICE_MS;
  let started = performance.now();
  // Buffered reads are accesses too: what the watermark and the plan must see.
  store.flushReads();
  const now = store.clock();
  const mark = store.read((r) => currentWatermark(r, now));
  // The run's cluster events come after this one (lifecycleHealth.ts counts them under the run).
  const afterSeq = store.read((r) => r.value<number>('SELECT max(seq) FROM events') ?? 0);
  const last = store.read((r) => lastWatermark(r));
  const result: ConsolidationRunResult = {
    dryRun: options.dryRun,
    skipped: false,
    interrupted: false,
    clusters: [],
    plannedIn: 'thread',
    created: [],
    confirmed: [],
    byReason: { relevant: 0, faded: 0, pattern: 0 },
    touched: 0,
    slices: 0,
    workMs: 0,
    longestMs: 0,
    planMs: 0,
  };
  const changed =
    !last ||
    mark.versionRow > last.versionRow ||
    mark.accessSeq > last.accessSeq ||
    now - last.at >= (options.staleAfterMs ?? DAY);
  if (!changed && !options.force && !options.dryRun) {
    result.skipped = true;
    return result;
  }
  const offThread = options.plan?.(now);
  // The copy for the worker was taken with the watermark: the plan and `mark` agree.
  result.workMs = performance.now() - started;
  result.longestMs = result.workMs;
  const inWorker = offThread && (await offThread);
  started = performance.now();
  if (inWorker) result.plannedIn = 'worker';
  result.clusters = inWorker || store.read((r) => planConsolidation(r, now));
  const summaries = options.summaries;
  if (summaries) result.clusters = store.read((r) => withProvidedSummaries(r, result.clusters, summaries));
  if (options.summaryRequests && options.dryRun) {
    const requests = store.read((r) => summaryRequests(r, result.clusters));
    result.clusters = result.clusters.map((c, i) => (requests[i] ? { ...c, request: requests[i] } : c));
  }
  const planned = performance.now() - started;
  result.workMs += planned;
  result.planMs = result.workMs;
  result.longestMs = Math.max(result.longestMs, planned);
  if (options.dryRun) return result;

  let next = 0;
  do {
    await new Promise((resolve) => setImmediate(resolve));
    if (options.signal?.aborted) {
      result.interrupted = true;
      return result;
    }
    started = performance.now();
    next = applySlice(store, result, next, started + sliceMs, { mark, afterSeq });
    const took = performance.now() - started;
    result.slices++;
    result.workMs += took;
    result.longestMs = Math.max(result.longestMs, took);
    options.afterSlice?.(result.slices);
  } while (next < result.clusters.length);
  return result;
}

/**
 * One transaction: clusters from `next` on, at least one, until `deadline` or `SLICE_MEMBERS`
 * members; the last slice also
 * records the run and its watermark. Returns where the next slice starts. Not synced on this
 * thread (the fdatasync runs in the background): a kill keeps the slice, and a power cut that
 * loses the last slices loses nothing the next run does not redo.
 */
function applySlice(
  store: MemoryStore,
  result: ConsolidationRunResult,
  next: number,
  deadline: number,
  run: { mark: ConsolidationWatermark; afterSeq: number },
): number {
  const started = performance.now();
  let members = 0;
  const fits = () => members + (result.clusters[next]?.members.length ?? 0) <= SLICE_MEMBERS;
  return store.write((tx, at) => {
    do {
      const cluster = result.clusters[next++];
      // A member changed after the plan: the summary would be out of date; the next run redoes it.
      if (!cluster || changedSince(tx, cluster, run.mark.versionRow)) continue;
      const into = applyConsolidation(store, [cluster]);
      if (into.length === 0) continue;
      (cluster.pattern?.confirms ? result.confirmed : result.created).push(...into);
      result.byReason[cluster.reason]++;
      result.touched += cluster.members.length;
      members += cluster.members.length;
    } while (next < result.clusters.length && performance.now() < deadline && fits());
    if (next >= result.clusters.length)
      store.ledger.append(tx, at, {
        type: 'consolidation-run',
        agent: LIFECYCLE,
        data: {
          planned: result.clusters.length,
          created: result.created.length,
          confirmed: result.confirmed.length,
          byReason: result.byReason,
          touched: result.touched,
          slices: result.slices + 1,
          plannedIn: result.plannedIn,
          workMs: Math.round(result.workMs + performance.now() - started),
          longestMs: Math.round(Math.max(result.longestMs, performance.now() - started)),
          ...modelSummaryCounts(result.clusters),
          watermark: run.mark,
          afterSeq: run.afterSeq,
        },
      });
    return next;
  }, NOT_SYNCED_HERE);
}

/** How many applied-or-planned clusters a model summarised, and how many fell back (when asked). */
function modelSummaryCounts(clusters: readonly ConsolidationCluster[]): { modelSummaries?: object } {
  const origins = clusters.flatMap((c) => (c.origin ? [c.origin.by] : []));
  if (origins.length === 0) return {};
  const written = origins.filter((by) => by === 'model').length;
  return { modelSummaries: { written, extractive: origins.length - written } };
}

function currentWatermark(reader: SqlReader, now: number): ConsolidationWatermark {
  return {
    versionRow: reader.value<number>('SELECT max(rowid) FROM memories') ?? 0,
    // From the newest event back: accesses are frequent, so this stops early (no index on type).
    accessSeq:
      reader.value<number>(
        "SELECT seq FROM events WHERE type IN ('read', 'recall') ORDER BY seq DESC LIMIT 1",
      ) ?? 0,
    at: now,
  };
}

/** The watermark of the last completed run, if any. */
export function lastWatermark(reader: SqlReader): ConsolidationWatermark | undefined {
  const data = reader.value<string>(
    "SELECT data FROM events WHERE type = 'consolidation-run' ORDER BY seq DESC LIMIT 1",
  );
  if (data === undefined) return undefined;
  const mark = (JSON.parse(data) as { watermark?: ConsolidationWatermark }).watermark;
  return mark && typeof mark.versionRow === 'number' ? mark : undefined;
}

/**
 * True when a member changed since the plan (every change is a new version row, past the plan's
 * watermark) or is no longer active.
 */
function changedSince(reader: SqlReader, cluster: ConsolidationCluster, versionRow: number): boolean {
  return (
    allForIds(
      reader,
      (marks) =>
        `SELECT 1 FROM memories WHERE (rowid > ? OR status != 'active') AND superseded_at IS NULL AND id IN (${marks}) LIMIT 1`,
      cluster.members,
      [versionRow],
    ).length > 0
  );
}
