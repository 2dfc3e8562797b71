import { invalidInput } from '../errors';
import type { MemoryStore } from '../memory/memoryStore';
import { KINDS, LAYERS, STATUSES } from '../memory/types';
import type { ChangeKind, Layer } from '../memory/types';
import { describe, oneOf } from '../memory/validate';
import type { SqlReader } from '../store/sqlAccess';
import { optionalNumber, optionalString } from './params';
import type { Params } from './params';

/** One memory as the timeline draws it: its current version, with when it was first recorded. */
export interface TimelineMemoryRow {
  id: string;
  layer: Layer;
  kind: string;
  status: string;
  /** Cut to CONTENT_CHARS: the panel shows a line, the full text opens in the editor. */
  content: string;
  agent: string | null;
  tags: string[];
  /** Valid time (ms since epoch); `validTo` null means still true. */
  validFrom: number;
  validTo: number | null;
  /** Transaction time of the current version. */
  recordedAt: number;
  /** Transaction time of the first version: when Engram first knew of this memory. */
  createdAt: number;
  version: number;
  supersededBy: string | null;
  /** The workspace file the memory was taken from, if any (codebase memories, imports). */
  sourceFile: string | null;
}

/** A later version of a memory (version 1 is the bar's start). */
export interface TimelineVersionMark {
  memoryId: string;
  version: number;
  recordedAt: number;
  change: ChangeKind;
}

/**
 * A superseded or invalidated memory and the memory that replaced it. Supersession names its
 * successor; an invalidated memory is linked to the next memory about the same subject (same
 * conflict key) recorded at or after its invalidation, when there is one.
 */
export interface TimelineLink {
  from: string;
  to: string;
  at: number;
  kind: 'supersede' | 'invalidate';
}

/** A stale drift finding, placed at the commit that made it so (or at the check when none is known). */
export interface TimelineDriftEvent {
  memoryId: string;
  at: number;
  reason: string;
  /** What the memory claimed: a path, a symbol, a script...; `file` is where a symbol was said to be. */
  claimKind: string;
  subject: string;
  file: string | null;
  commit: { hash: string; message: string; date: string; author: string } | null;
}

/** One run of the codebase scanner. */
export interface TimelineScan {
  generation: number;
  status: string;
  startedAt: number;
  finishedAt: number | null;
  /** Files added + changed + deleted + renamed, when the scan finished. */
  changedFiles: number | null;
}

export interface TimelinePayload {
  memories: TimelineMemoryRow[];
  versions: TimelineVersionMark[];
  links: TimelineLink[];
  drift: TimelineDriftEvent[];
  scans: TimelineScan[];
  /** How many memories matched the filters; more than `memories.length` when cut at `limit`. */
  total: number;
  truncated: boolean;
  /** When the engine read the data: the end of bars without an end. */
  now: number;
}

/** @default 10000 memories: the most a panel draws; the newest are kept when more match. */
const MAX_MEMORIES = 10_000;
const CONTENT_CHARS = 240;
/** Scans and drift findings beyond these are old news on a timeline; the newest are kept. */
const MAX_SCANS = 2_000;
const MAX_DRIFT = 10_000;

interface TimelineFilters {
  layer?: Layer;
  kind?: string;
  agent?: string;
  status?: string;
  tag?: string;
  text?: string;
  limit: number;
}

function filtersOf(p: Params): TimelineFilters {
  const filters: TimelineFilters = { limit: MAX_MEMORIES };
  if (p['layer'] !== undefined) filters.layer = oneOf('layer', p['layer'], LAYERS);
  if (p['kind'] !== undefined) filters.kind = oneOf('kind', p['kind'], KINDS);
  if (p['status'] !== undefined && p['status'] !== 'all')
    filters.status = oneOf('status', p['status'], [...STATUSES, 'all'] as const);
  for (const field of ['agent', 'tag', 'text'] as const) {
    const value = optionalString(p, field);
    if (value !== undefined && value.trim() !== '') filters[field] = value.trim();
  }
  const limit = optionalNumber(p, 'limit');
  if (limit !== undefined) {
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_MEMORIES)
      throw invalidInput(`limit must be a whole number from 1 to ${MAX_MEMORIES}; got ${describe(limit)}`);
    filters.limit = limit;
  }
  return filters;
}

interface CurrentRow {
  id: string;
  layer: Layer;
  kind: string;
  status: string;
  content: string;
  agent: string | null;
  tags: string;
  valid_from: number;
  valid_to: number | null;
  recorded_at: number;
  version: number;
  superseded_by: string | null;
  conflict_key: string | null;
  source_file: unknown;
  created_at: number | null;
}

function currentRows(r: SqlReader, f: TimelineFilters): { rows: CurrentRow[]; total: number } {
  const where = ['m.superseded_at IS NULL'];
  const params: Array<string | number> = [];
  for (const [column, value] of [
    ['m.layer', f.layer],
    ['m.kind', f.kind],
    ['m.agent', f.agent],
    ['m.status', f.status],
  ] as const) {
    if (value !== undefined) {
      where.push(`${column} = ?`);
      params.push(value);
    }
  }
  if (f.tag !== undefined) {
    where.push('EXISTS (SELECT 1 FROM json_each(m.tags) WHERE json_each.value = ?)');
    params.push(f.tag.toLowerCase());
  }
  if (f.text !== undefined) {
    where.push('instr(lower(m.content), ?) > 0');
    params.push(f.text.toLowerCase());
  }
  const filter = where.join(' AND ');
  const total = r.value<number>(`SELECT count(*) FROM memories m WHERE ${filter}`, params) ?? 0;
  const rows = r.all<CurrentRow>(
    `SELECT m.id, m.layer, m.kind, m.status, substr(m.content, 1, ${CONTENT_CHARS + 1}) AS content, m.agent,
       m.tags, m.valid_from, m.valid_to, m.recorded_at, m.version, m.superseded_by, m.conflict_key,
       json_extract(m.source, '$.file') AS source_file,
       (SELECT v.recorded_at FROM memories v WHERE v.id = m.id AND v.version = 1) AS created_at
     FROM memories m WHERE ${filter} ORDER BY m.recorded_at DESC, m.id DESC LIMIT ?`,
    [...params, f.limit],
  );
  return { rows, total };
}

function cut(text: string): string {
  return text.length <= CONTENT_CHARS ? text : `${text.slice(0, CONTENT_CHARS - 1)}…`;
}

/** The later versions of the shown memories, as marks (version 1 is where the bar starts). */
function versionMarks(r: SqlReader, ids: ReadonlySet<string>): TimelineVersionMark[] {
  const rows = r.all<{ id: string; version: number; recorded_at: number; change: ChangeKind }>(
    'SELECT id, version, recorded_at, change FROM memories WHERE version > 1 ORDER BY id, version',
  );
  return rows
    .filter((row) => ids.has(row.id))
    .map((row) => ({
      memoryId: row.id,
      version: row.version,
      recordedAt: row.recorded_at,
      change: row.change,
    }));
}

/** Claims found stale or moved, one event per memory and commit (several claims may share one). */
function driftEvents(r: SqlReader, ids: ReadonlySet<string>): TimelineDriftEvent[] {
  const rows = r.all<{
    memory_id: string;
    kind: string;
    subject: string;
    file: string | null;
    evidence: string | null;
    checked_at: number | null;
  }>(
    `SELECT memory_id, kind, subject, file, evidence, checked_at FROM drift_claims
     WHERE verdict IN ('stale', 'moved') ORDER BY checked_at DESC LIMIT ?`,
    [MAX_DRIFT],
  );
  const seen = new Map<string, TimelineDriftEvent>();
  for (const row of rows) {
    if (!ids.has(row.memory_id)) continue;
    const evidence = parseEvidence(row.evidence);
    const c = evidence.commit;
    const commit =
      c && typeof c.hash === 'string' && typeof c.time === 'number'
        ? {
            hash: c.hash,
            message: textOf(c.message),
            date: textOf(c.date),
            author: textOf(c.author),
          }
        : null;
    const at = commit ? (c?.time as number) : (row.checked_at ?? 0);
    const key = `${row.memory_id}\u0000${commit?.hash ?? 'none'}`;
    if (seen.has(key)) continue;
    seen.set(key, {
      memoryId: row.memory_id,
      at,
      reason: textOf(evidence.reason) || 'stale',
      claimKind: row.kind,
      subject: row.subject,
      file: row.file,
      commit,
    });
  }
  return [...seen.values()].sort((a, b) => a.at - b.at);
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function parseEvidence(text: string | null): { reason?: unknown; commit?: Record<string, unknown> } {
  if (text === null) return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : {};
  } catch {
    return {};
  }
}

function scansOf(r: SqlReader): TimelineScan[] {
  return r
    .all<{
      generation: number;
      status: string;
      started_at: number;
      finished_at: number | null;
      stats: string | null;
    }>(
      'SELECT generation, status, started_at, finished_at, stats FROM code_scans ORDER BY generation DESC LIMIT ?',
      [MAX_SCANS],
    )
    .reverse()
    .map((row) => ({
      generation: row.generation,
      status: row.status,
      startedAt: row.started_at,
      finishedAt: row.finished_at,
      changedFiles: changedFiles(row.stats),
    }));
}

function changedFiles(stats: string | null): number | null {
  if (stats === null) return null;
  try {
    const s = JSON.parse(stats) as Record<string, unknown>;
    return ['added', 'changed', 'deleted', 'renamed'].reduce((sum, k) => sum + (Number(s[k]) || 0), 0);
  } catch {
    return null;
  }
}

/** Replacement links, drawn when the replacement is on the timeline too. */
function linksOf(rows: readonly CurrentRow[], ids: ReadonlySet<string>): TimelineLink[] {
  const links: TimelineLink[] = [];
  const byConflict = new Map<string, CurrentRow[]>();
  for (const row of rows) {
    if (row.conflict_key === null || row.status !== 'active') continue;
    const list = byConflict.get(row.conflict_key) ?? [];
    list.push(row);
    byConflict.set(row.conflict_key, list);
  }
  for (const row of rows) {
    const at = row.valid_to ?? row.recorded_at;
    if (row.superseded_by !== null && ids.has(row.superseded_by)) {
      links.push({ from: row.id, to: row.superseded_by, at, kind: 'supersede' });
    } else if (row.status === 'invalidated' && row.conflict_key !== null) {
      const next = (byConflict.get(row.conflict_key) ?? [])
        .filter((c) => c.id !== row.id && c.recorded_at >= row.recorded_at)
        .sort((a, b) => a.recorded_at - b.recorded_at)[0];
      if (next) links.push({ from: row.id, to: next.id, at, kind: 'invalidate' });
    }
  }
  return links;
}

/** The timeline's data in one bounded read: memories, their versions, what replaced them, drift, scans. */
export function timelineData(store: MemoryStore, p: Params): TimelinePayload {
  const filters = filtersOf(p);
  const now = store.clock();
  return store.read((r) => {
    const { rows, total } = currentRows(r, filters);
    const ids = new Set(rows.map((row) => row.id));
    const memories = rows.map((row): TimelineMemoryRow => ({
      id: row.id,
      layer: row.layer,
      kind: row.kind,
      status: row.status,
      content: cut(row.content),
      agent: row.agent,
      tags: JSON.parse(row.tags) as string[],
      validFrom: row.valid_from,
      validTo: row.valid_to,
      recordedAt: row.recorded_at,
      createdAt: row.created_at ?? row.recorded_at,
      version: row.version,
      supersededBy: row.superseded_by,
      sourceFile: typeof row.source_file === 'string' ? row.source_file : null,
    }));
    const links = linksOf(rows, ids);
    return {
      memories,
      versions: versionMarks(r, ids),
      links,
      drift: driftEvents(r, ids),
      scans: scansOf(r),
      total,
      truncated: total > memories.length,
      now,
    };
  });
}

/**
 * The timeline panel's read: `timeline` {layer?, kind?, agent?, status? ('all' by default), tag?,
 * text?, limit? (1-10000)} -> TimelinePayload.
 */
export const TIMELINE_METHODS = {
  timeline: { write: false, run: timelineData },
} as const;
