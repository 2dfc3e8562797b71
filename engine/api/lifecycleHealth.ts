import { DEFAULT_LIFECYCLE_RULES } from '../lifecycle/lifecycleFacts';
import type { LifecycleRules } from '../lifecycle/lifecycleFacts';
import { DECAYING_LAYERS, retentionOf } from '../lifecycle/retention';
import type { Layer, Trust } from '../memory/types';
import type { SqlReader } from '../store/sqlAccess';

const DAY = 24 * 60 * 60 * 1000;
/** "Recently" on the Analytics tab: archived and promoted in the last this many days. */
export const RECENT_DAYS = 30;
/** Lifecycle runs listed, newest first. */
export const MAX_RUNS = 10;
/** Idle-age bins of the retention curve, in days (the last one is open-ended). */
export const AGE_BINS_DAYS = [0, 1, 7, 14, 30, 60, 90, 180];

/** One point of the retention curve: memories idle for [fromDays, toDays) days, and their mean retention. */
export interface RetentionBin {
  fromDays: number;
  /** null: open-ended (the oldest bin). */
  toDays: number | null;
  memories: number;
  /** null when the bin is empty. */
  meanRetention: number | null;
}

/**
 * One lifecycle run, as the ledger tells it: the events written in one transaction (one `at`)
 * by the lifecycle pass (`lifecycle`), consolidation (`consolidate`, one per cluster) and dedup
 * (`dedup`, one per merged pair).
 */
export interface LifecycleRun {
  at: number;
  promoted: number;
  archived: number;
  /** Memories old and rarely recalled enough to be weighed for archiving. */
  considered: number;
  /** Consolidated memories written, and the members they superseded. */
  consolidated: number;
  superseded: number;
  /** Near-duplicates merged. */
  merged: number;
}

/** The lifecycle's health, without the duplicates count (duplicatesPending.ts adds it). */
export interface LifecycleHealthFacts {
  now: number;
  /** Working and episodic memories (the ones that fade) by days since written or last recalled. */
  retention: {
    bins: RetentionBin[];
    memories: number;
    /** Retention under the archive rule's threshold (archived once also old, unimportant, unread). */
    belowArchive: number;
    archiveThreshold: number;
  };
  archived: { total: number; recent: number };
  promoted: { total: number; recent: number };
  recentDays: number;
  runs: LifecycleRun[];
  /**
   * Storage quality: the share of active memories recalled or read at least once. The codebase
   * layer is left out: it is the scan's index of the code, rewritten by every scan, and would
   * measure the scan instead of what was remembered.
   */
  quality: { active: number; recalled: number; share: number | null };
}

/** Everything but the duplicates, from SQL over the current versions and the event ledger. */
export function lifecycleHealthFacts(
  reader: SqlReader,
  now: number,
  rules: LifecycleRules = DEFAULT_LIFECYCLE_RULES,
): LifecycleHealthFacts {
  const since = now - RECENT_DAYS * DAY;
  const count = (sql: string, params: Array<string | number> = []) => reader.value<number>(sql, params) ?? 0;
  // One pass over the ledger for both counts (it has no index on type).
  const ledger = new Map(
    reader
      .all<{ type: string; total: number; recent: number }>(
        `SELECT type, count(*) AS total, coalesce(sum(at >= ?), 0) AS recent FROM events
         WHERE type IN ('archive', 'promote') GROUP BY type`,
        [since],
      )
      .map((row) => [row.type, { total: row.total, recent: row.recent }]),
  );
  const events = (type: string) => ledger.get(type) ?? { total: 0, recent: 0 };
  const active = count(
    "SELECT count(*) FROM memories WHERE superseded_at IS NULL AND status = 'active' AND layer <> 'codebase'",
  );
  const recalled = count(
    `SELECT count(*) FROM memories m JOIN memory_state s ON s.id = m.id WHERE m.superseded_at IS NULL
     AND m.status = 'active' AND m.layer <> 'codebase' AND s.access_count > 0`,
  );
  return {
    now,
    retention: retentionCurve(reader, now, rules),
    archived: {
      // Archived now (a restored memory no longer counts); recently: archive events.
      total: count("SELECT count(*) FROM memories WHERE superseded_at IS NULL AND status = 'archived'"),
      recent: events('archive').recent,
    },
    promoted: events('promote'),
    recentDays: RECENT_DAYS,
    runs: lifecycleRuns(reader),
    quality: { active, recalled, share: active === 0 ? null : round(recalled / active) },
  };
}

function retentionCurve(
  reader: SqlReader,
  now: number,
  rules: LifecycleRules,
): LifecycleHealthFacts['retention'] {
  const layers = [...DECAYING_LAYERS];
  type Row = {
    layer: Layer;
    trust: Trust;
    critical: number;
    pinned: number | null;
    validFrom: number;
    lastAccessedAt: number | null;
    accessCount: number | null;
  };
  // Only the columns retention needs: this reads every fading memory, not their content.
  const rows = reader.all<Row>(
    `SELECT m.layer, m.trust, m.critical, s.pinned, m.valid_from AS validFrom,
       s.last_accessed_at AS lastAccessedAt, s.access_count AS accessCount
     FROM memories m LEFT JOIN memory_state s ON s.id = m.id
     WHERE m.superseded_at IS NULL AND m.status = 'active' AND m.layer IN (${layers.map(() => '?').join(', ')})`,
    layers,
  );
  const sums = AGE_BINS_DAYS.map(() => ({ memories: 0, retention: 0 }));
  let belowArchive = 0;
  for (const row of rows) {
    const idleDays = Math.max(0, now - Math.max(row.validFrom, row.lastAccessedAt ?? 0)) / DAY;
    const retention = !rules.decay
      ? 1
      : retentionOf(
          {
            layer: row.layer,
            trust: row.trust,
            pinned: row.pinned === 1,
            critical: row.critical === 1,
            ageDays: idleDays,
            accessCount: row.accessCount ?? 0,
          },
          rules.retention,
        );
    if (retention < rules.archive.maxRetention) belowArchive++;
    let bin = AGE_BINS_DAYS.length - 1;
    while (bin > 0 && idleDays < AGE_BINS_DAYS[bin]!) bin--;
    sums[bin]!.memories++;
    sums[bin]!.retention += retention;
  }
  return {
    bins: sums.map((sum, i) => ({
      fromDays: AGE_BINS_DAYS[i]!,
      toDays: AGE_BINS_DAYS[i + 1] ?? null,
      memories: sum.memories,
      meanRetention: sum.memories === 0 ? null : round(sum.retention / sum.memories),
    })),
    memories: rows.length,
    belowArchive,
    archiveThreshold: rules.archive.maxRetention,
  };
}

/**
 * The newest runs: lifecycle, consolidation and dedup events grouped by their transaction's time.
 * A sliced consolidation (consolidationRun.ts) writes its cluster events over many transactions and
 * one `consolidation-run` event at its end, which stands for the run; cluster events it covers
 * (after its `afterSeq`, before it) are not runs of their own.
 */
function lifecycleRuns(reader: SqlReader): LifecycleRun[] {
  // The newest MAX_RUNS sliced runs are enough: older cluster events are older than all of them.
  const covered = reader
    .all<{ seq: number; data: string | null }>(
      "SELECT seq, data FROM events WHERE type = 'consolidation-run' AND json_extract(data, '$.created') > 0 ORDER BY seq DESC LIMIT ?",
      [MAX_RUNS],
    )
    .map((row) => [numberOf(parseData(row.data)['afterSeq']), row.seq]);
  const outside = covered.map(() => ' AND NOT (seq > ? AND seq < ?)').join('');
  // A sliced run that consolidated nothing is no run to show (hosts may run one every 15 minutes).
  const where =
    "(type IN ('lifecycle', 'dedup') OR (type = 'consolidation-run' AND json_extract(data, '$.created') > 0)" +
    ` OR (type = 'consolidate'${outside}))`;
  const ranges = covered.flat();
  const times = reader
    .all<{ at: number }>(`SELECT DISTINCT at FROM events WHERE ${where} ORDER BY at DESC LIMIT ?`, [
      ...ranges,
      MAX_RUNS,
    ])
    .map((row) => row.at);
  if (times.length === 0) return [];
  const rows = reader.all<{ at: number; type: string; data: string | null }>(
    `SELECT at, type, data FROM events WHERE ${where} AND at >= ? ORDER BY at DESC`,
    [...ranges, times.at(-1)!],
  );
  const runs = new Map<number, LifecycleRun>(
    times.map((at) => [
      at,
      { at, promoted: 0, archived: 0, considered: 0, consolidated: 0, superseded: 0, merged: 0 },
    ]),
  );
  for (const row of rows) {
    const run = runs.get(row.at);
    if (!run) continue;
    const data = parseData(row.data);
    if (row.type === 'lifecycle') {
      run.promoted += numberOf(data['promoted']);
      run.archived += numberOf(data['archived']);
      run.considered += numberOf(data['considered']);
    } else if (row.type === 'consolidation-run') {
      run.consolidated += numberOf(data['created']);
      run.superseded += numberOf(data['touched']);
    } else if (row.type === 'consolidate') {
      run.consolidated++;
      run.superseded += Array.isArray(data['members']) ? data['members'].length : 0;
    } else run.merged++;
  }
  return [...runs.values()];
}

function parseData(data: string | null): Record<string, unknown> {
  try {
    const parsed = JSON.parse(data ?? '{}') as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function numberOf(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
