import { z } from 'zod';
import { viewerOf, visibleCondition } from '../memory/visibility';
import type { Viewer } from '../memory/visibility';
import type { MemoryStore } from '../memory/memoryStore';
import { KINDS, LAYERS, STATUSES } from '../memory/types';
import type { ChangeKind, Layer } from '../memory/types';
import type {
  TimelineDriftEvent,
  TimelineLink,
  TimelineMemoryRow,
  TimelinePayload,
  TimelineScan,
  TimelineVersionMark,
} from './timelinePayload';
import type { SqlReader } from '../store/sqlAccess';
import { defineMethod, methodParams } from './defineMethod';
import { wholeNumber } from './paramFields';
import { timelineSessions } from '../capture/timelineSessions';

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
  /** Who reads: another agent's private memories are not on its timeline (visibility.ts). */
  viewer?: Viewer;
}

/**
 * `timeline` {layer?, kind?, agent?, status? ('all' by default), tag?, text?, limit? (1-10000)};
 * blank text filters are no filter.
 */
export const TIMELINE_PARAMS = methodParams({
  layer: z.enum(LAYERS).optional(),
  kind: z.enum(KINDS).optional(),
  status: z.enum([...STATUSES, 'all']).optional(),
  agent: z.string().optional(),
  tag: z.string().optional(),
  text: z.string().optional(),
  limit: wholeNumber(1, MAX_MEMORIES, `must be a whole number from 1 to ${MAX_MEMORIES}`).optional(),
});

function filtersOf(p: z.output<typeof TIMELINE_PARAMS>): TimelineFilters {
  const filters: TimelineFilters = { limit: p.limit ?? MAX_MEMORIES };
  const viewer = viewerOf(p);
  if (viewer !== undefined) filters.viewer = viewer;
  if (p.layer !== undefined) filters.layer = p.layer;
  if (p.kind !== undefined) filters.kind = p.kind;
  if (p.status !== undefined && p.status !== 'all') filters.status = p.status;
  for (const field of ['agent', 'tag', 'text'] as const) {
    const value = p[field]?.trim();
    if (value) filters[field] = value;
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
  tags: string[];
  valid_from: number;
  valid_to: number | null;
  recorded_at: number;
  version: number;
  superseded_by: string | null;
  conflict_key: string | null;
  source_file: unknown;
  created_at: number | null;
}

/** The WHERE clause (current versions, the filters) and its parameters. */
function whereOf(f: TimelineFilters): { filter: string; params: Array<string | number> } {
  const visible = visibleCondition(f.viewer);
  const where = ['m.superseded_at IS NULL', visible.sql];
  const params: Array<string | number> = [...visible.params];
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
  return { filter: where.join(' AND '), params };
}

/** Where the previous page ended, newest first: (recorded_at, id) of its last row. */
interface PageCursor {
  recordedAt: number;
  id: string;
}

/** CurrentRow's fields in the order of the JSON arrays a page is read as. */
const ROW_FIELDS = [
  'id',
  'layer',
  'kind',
  'status',
  'content',
  'agent',
  'tags',
  'valid_from',
  'valid_to',
  'recorded_at',
  'version',
  'superseded_by',
  'conflict_key',
  'source_file',
  'created_at',
] as const satisfies ReadonlyArray<keyof CurrentRow>;

/**
 * One page of current memories, newest first, after `cursor`. Keyset paging on the recorded_at
 * index: each page starts where the last one ended instead of re-reading (and re-sorting) the rows
 * before it, so a page costs about the same however deep it is. The page comes back as one JSON
 * text: sql.js pays for every column of every row it hands over, JSON.parse far less.
 */
function currentPage(
  r: SqlReader,
  f: TimelineFilters,
  cursor: PageCursor | undefined,
  size: number,
): CurrentRow[] {
  const { filter, params } = whereOf(f);
  const after = cursor ? ' AND m.recorded_at <= ? AND (m.recorded_at < ? OR m.id < ?)' : '';
  const afterParams = cursor ? [cursor.recordedAt, cursor.recordedAt, cursor.id] : [];
  const text = r.value<string>(
    `SELECT json_group_array(json_array(${ROW_FIELDS.map((c) => (c === 'tags' ? 'json(tags)' : c)).join(', ')})
       ORDER BY recorded_at DESC, id DESC)
     FROM (SELECT m.id, m.layer, m.kind, m.status, substr(m.content, 1, ${CONTENT_CHARS + 1}) AS content,
       m.agent, m.tags, m.valid_from, m.valid_to, m.recorded_at, m.version, m.superseded_by, m.conflict_key,
       json_extract(m.source, '$.file') AS source_file,
       (SELECT v.recorded_at FROM memories v WHERE v.id = m.id AND v.version = 1) AS created_at
     FROM memories m WHERE ${filter}${after} ORDER BY m.recorded_at DESC, m.id DESC LIMIT ?)`,
    [...params, ...afterParams, size],
  );
  const rows = JSON.parse(text ?? '[]') as unknown[][];
  return rows.map(
    (values) => Object.fromEntries(ROW_FIELDS.map((field, i) => [field, values[i]])) as unknown as CurrentRow,
  );
}

function cut(text: string): string {
  return text.length <= CONTENT_CHARS ? text : `${text.slice(0, CONTENT_CHARS - 1)}…`;
}

/** The later versions of a page's memories, as marks (version 1 is where the bar starts). */
function versionMarks(r: SqlReader, rows: readonly CurrentRow[]): TimelineVersionMark[] {
  const later = rows.filter((row) => row.version > 1).map((row) => row.id);
  if (later.length === 0) return [];
  return r
    .all<{ id: string; version: number; recorded_at: number; change: ChangeKind }>(
      `SELECT id, version, recorded_at, change FROM memories
       WHERE id IN (SELECT value FROM json_each(?)) AND version > 1 ORDER BY id, version`,
      [JSON.stringify(later)],
    )
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

/**
 * Rows per read. A read holds the thread of the process hosting the database (the extension host,
 * when VS Code hosts it) until it returns; between pages the thread is free for other work.
 */
const PAGE_ROWS = 500;

/** Lets the event loop run what is waiting before the next page. */
function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function timelineRow(row: CurrentRow): TimelineMemoryRow {
  return {
    id: row.id,
    layer: row.layer,
    kind: row.kind,
    status: row.status,
    content: cut(row.content),
    agent: row.agent,
    tags: row.tags,
    validFrom: row.valid_from,
    validTo: row.valid_to,
    recordedAt: row.recorded_at,
    createdAt: row.created_at ?? row.recorded_at,
    version: row.version,
    supersededBy: row.superseded_by,
    sourceFile: typeof row.source_file === 'string' ? row.source_file : null,
  };
}

/**
 * The timeline's data, bounded: memories (newest first) with their versions, what replaced them,
 * drift and scans. Read in pages with the event loop free between them, so 10,000 memories do not
 * hold the host's thread for the whole read. A write between pages can make the pages disagree (a
 * memory edited meanwhile shows its older version, or is missed if not yet read); every write
 * tells the panel, which reads again.
 */
export async function timelineData(
  store: MemoryStore,
  p: z.output<typeof TIMELINE_PARAMS>,
): Promise<TimelinePayload> {
  const filters = filtersOf(p);
  const now = store.clock();
  const { filter, params } = whereOf(filters);
  const total =
    store.read((r) => r.value<number>(`SELECT count(*) FROM memories m WHERE ${filter}`, params)) ?? 0;
  const rows: CurrentRow[] = [];
  const memories: TimelineMemoryRow[] = [];
  const versions: TimelineVersionMark[] = [];
  const ids = new Set<string>();
  let cursor: PageCursor | undefined;
  while (rows.length < filters.limit) {
    await yieldToLoop();
    const size = Math.min(PAGE_ROWS, filters.limit - rows.length);
    const page = store.read((r) => {
      const read = currentPage(r, filters, cursor, size);
      return { read, versions: versionMarks(r, read) };
    });
    // Defensive: only a clock set back could bring a memory again (its new version recorded
    // before the cursor); keep the first.
    const added = new Set<string>();
    for (const row of page.read) {
      if (ids.has(row.id)) continue;
      ids.add(row.id);
      added.add(row.id);
      rows.push(row);
      memories.push(timelineRow(row));
    }
    versions.push(...page.versions.filter((v) => added.has(v.memoryId)));
    const last = page.read[page.read.length - 1];
    if (page.read.length < size || !last) break;
    cursor = { recordedAt: last.recorded_at, id: last.id };
  }
  await yieldToLoop();
  const drift = store.read((r) => driftEvents(r, ids));
  await yieldToLoop();
  const scans = store.read((r) => scansOf(r));
  await yieldToLoop();
  const sessions = store.read((r) => timelineSessions(r));
  return {
    memories,
    versions,
    links: linksOf(rows, ids),
    drift,
    scans,
    sessions,
    total,
    truncated: total > memories.length,
    now,
  };
}

/** The timeline panel's read: `timeline` TIMELINE_PARAMS -> TimelinePayload. */
export const TIMELINE_METHODS = {
  timeline: defineMethod({
    params: TIMELINE_PARAMS,
    write: false,
    run: ({ store }, p) => timelineData(store, p),
  }),
} as const;
