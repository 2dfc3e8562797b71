import { EngramError } from '../errors';
import type { MemoryStore } from '../memory/memoryStore';
import type { SqlReader } from '../store/sqlAccess';
import { captureEnabled, enabledSince, observationMode } from './captureSettings';
import type { ObservationMode } from './captureSettings';
import { CAPTURE_AGENTS } from './events';
import type { CaptureAgent } from './events';
import { captureExcludes, pathMatcher } from './captureExcludes';
import type { CaptureExcludes } from './captureExcludes';
import { ingestSource } from './ingest';
import { linkCommits } from './link/commitLinks';
import { writeSessionLessons } from './sessionLessons';
import { writeSessionSummaries } from './sessionSummary';
import { writeStatedConventions } from './statedConventions';
import type { SourceReport } from './ingest';
import { openCodeSources } from './openCode/openCodeSources';
import { ingestRows } from './rowIngest';
import { findSources } from './workspaceSources';
import type { AgentStores } from './workspaceSources';

export interface CaptureRunOptions {
  root: string;
  stores: AgentStores;
  agents?: readonly CaptureAgent[];
  since?: number;
  /** sql.js's wasm, to read OpenCode's database (its older JSON storage is read without). */
  sqlWasmPath?: string;
}

export interface CaptureRunReport {
  root: string;
  sources: SourceReport[];
  /** Session summary memories written or superseded (sessionSummary.ts). */
  summaries: number;
  /** New memories of conventions the user stated (statedConventions.ts). */
  conventions: number;
  /** Links of sessions to the commits that carry their edits (link/commitLinks.ts). */
  links: number;
  /** Sessions whose links were kept as they were: git could not read their commits (LinkReport.unread). */
  linksUnread: number;
  /** New memories of corrections, recovered commands and absences (sessionLessons.ts). */
  lessons: number;
}

/**
 * Reads the new records of every session file of this workspace. Refuses, reading nothing, when
 * capture is not enabled for the workspace.
 */
export async function runCapture(store: MemoryStore, options: CaptureRunOptions): Promise<CaptureRunReport> {
  if (!store.read(captureEnabled)) {
    throw new EngramError(
      'INVALID_INPUT',
      'capture is off for this workspace: run `engram capture enable` first',
    );
  }
  const excludes = store.read(captureExcludes);
  const agents = (options.agents ?? CAPTURE_AGENTS).filter((a) => !excludes.agents.includes(a));
  const files = await findSources(options.root, options.stores, {
    agents,
    ...(options.since === undefined ? {} : { since: options.since }),
  });
  const excludePath = pathMatcher(excludes.paths);
  const sources: SourceReport[] = [];
  // A first capture can read hundreds of MB: one snapshot after it, not an export every 16 MiB.
  await store.db.bulk(async () => {
    for (const file of files) {
      sources.push(
        await ingestSource(store, file, { root: options.root, ...(excludePath ? { excludePath } : {}) }),
      );
    }
    if (agents.includes('opencode') && options.stores.opencodeData !== undefined) {
      sources.push(...(await readOpenCode(store, options, options.stores.opencodeData, excludePath)));
    }
  });
  const updated = [...new Set(sources.flatMap((s) => s.sessions))];
  // Commits often come after a session: recent sessions are linked again on every run.
  const linked = await linkCommits(store, options.root, updated, Date.now());
  const summaries = await writeSessionSummaries(store, [...new Set([...updated, ...linked.changed])]);
  const conventions = await writeStatedConventions(store, updated);
  const lessons = await writeSessionLessons(store, updated);
  return {
    root: options.root,
    sources,
    summaries,
    conventions,
    lessons,
    links: linked.links,
    linksUnread: linked.unread,
  };
}

/** OpenCode keeps sessions as rows, not files: its sessions of this workspace, one source each. */
async function readOpenCode(
  store: MemoryStore,
  options: CaptureRunOptions,
  dataDir: string,
  excludePath: ((relative: string) => boolean) | undefined,
): Promise<SourceReport[]> {
  const rows = await openCodeSources(dataDir, options.root, {
    ...(options.sqlWasmPath === undefined ? {} : { sqlWasmPath: options.sqlWasmPath }),
    ...(options.since === undefined ? {} : { since: options.since }),
  });
  const reports: SourceReport[] = [];
  // Until every source was read, each counts as unfinished (a database is then opened again).
  let pending = new Set(rows.sources.map((s) => s.path));
  try {
    for (const source of rows.sources) {
      reports.push(
        await ingestRows(store, source, {
          root: options.root,
          now: Date.now(),
          ...(excludePath ? { excludePath } : {}),
        }),
      );
    }
    pending = new Set(reports.filter((r) => r.pending === true).map((r) => r.path));
  } finally {
    rows.close(pending);
  }
  return reports;
}

export interface CaptureStatus {
  enabled: boolean;
  excludes: CaptureExcludes;
  changedAt: number | null;
  /** Whether a language model also writes observations of the sessions (captureSettings.ts). */
  observations: ObservationMode;
  sources: number;
  records: number;
  sessions: Array<{ agent: string; sessions: number; turns: number; lastAt: number | null }>;
}

export function captureStatus(r: SqlReader): CaptureStatus {
  return {
    enabled: captureEnabled(r),
    excludes: captureExcludes(r),
    changedAt: enabledSince(r),
    observations: observationMode(r),
    sources: r.value<number>('SELECT count(*) FROM capture_sources') ?? 0,
    records: r.value<number>('SELECT count(*) FROM capture_records') ?? 0,
    sessions: r.all<{ agent: string; sessions: number; turns: number; lastAt: number | null }>(
      `SELECT s.agent, count(*) AS sessions,
         (SELECT count(*) FROM capture_turns t JOIN capture_sessions u ON u.id = t.session_id WHERE u.agent = s.agent) AS turns,
         max(s.ended_at) AS lastAt
       FROM capture_sessions s GROUP BY s.agent ORDER BY s.agent`,
    ),
  };
}
