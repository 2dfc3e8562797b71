import { EngramError, invalidInput, notFound } from '../errors';
import type { SqlReader } from '../store/sqlAccess';
import { CURRENT_SELECT, VERSION_COLUMNS, toMemory, toVersion } from './rows';
import type { MemoryRow } from './rows';
import type { Annotation, Layer, Memory, MemoryVersion, Status } from './types';
import { isVisible, visibleCondition } from './visibility';
import type { Viewer } from './visibility';

/**
 * Resolves a full id or a unique prefix of at least 6 characters to a memory id. With a `viewer`,
 * another agent's private memory is not found (the same error as a missing one: its existence is
 * not told either), and a prefix matches only the memories the viewer sees.
 */
export function resolveId(reader: SqlReader, idOrPrefix: string, viewer?: Viewer): string {
  const id = idOrPrefix.trim();
  if (id === '') throw invalidInput('a memory id is required');
  const missing = () => notFound(`no memory with id "${id}"`);
  // Every memory has exactly one current version (memories_current), which decides who sees it.
  const current = reader.get<{ scope: string; agent: string | null }>(
    'SELECT scope, agent FROM memories WHERE id = ? AND superseded_at IS NULL',
    [id],
  );
  if (current !== undefined) {
    if (!isVisible(viewer, current)) throw missing();
    return id;
  }
  if (id.length >= 6) {
    const visible = visibleCondition(viewer);
    // Every memory has one current version, so current rows list each id once.
    const matches = reader.all<{ id: string }>(
      `SELECT m.id FROM memories m WHERE m.id >= ? AND m.id < ? || char(1114111)
       AND m.superseded_at IS NULL AND ${visible.sql} LIMIT 2`,
      [id, id, ...visible.params],
    );
    if (matches.length === 1) return matches[0]!.id;
    if (matches.length > 1) throw invalidInput(`memory id prefix "${id}" is ambiguous; give more characters`);
  }
  throw missing();
}

export function currentMemory(reader: SqlReader, id: string): Memory {
  const row = reader.get<MemoryRow>(`${CURRENT_SELECT} WHERE m.id = ? AND m.superseded_at IS NULL`, [id]);
  if (!row) throw notFound(`no memory with id "${id}"`);
  return toMemory(row);
}

export function versionsOf(reader: SqlReader, id: string): MemoryVersion[] {
  return reader
    .all<MemoryRow>(`SELECT ${VERSION_COLUMNS} FROM memories m WHERE m.id = ? ORDER BY m.version`, [id])
    .map(toVersion);
}

export function annotationsOf(reader: SqlReader, id: string): Annotation[] {
  return reader.all<Annotation>(
    'SELECT id, memory_id AS memoryId, text, agent, created_at AS createdAt FROM annotations WHERE memory_id = ? ORDER BY created_at, id',
    [id],
  );
}

export interface ListOptions {
  layer?: Layer;
  kind?: string;
  /** @default 'active'; 'all' lists every status. */
  status?: Status | 'all';
  tag?: string;
  agent?: string;
  session?: string;
  pinned?: boolean;
  /** @default 50 */
  limit?: number;
  /** Rows to skip (the `next` of the previous page). */
  offset?: number;
}

export interface Page<T> {
  items: T[];
  total: number;
  /** Offset of the next page, or null when this was the last. */
  next: number | null;
}

/** A page of current memories, newest first; with a `viewer`, only those it sees (visibility.ts). */
export function listMemories(reader: SqlReader, options: ListOptions, viewer?: Viewer): Page<Memory> {
  const visible = visibleCondition(viewer);
  const where = ['m.superseded_at IS NULL', visible.sql];
  const params: Array<string | number> = [...visible.params];
  const status = options.status ?? 'active';
  if (status !== 'all') {
    where.push('m.status = ?');
    params.push(status);
  }
  for (const [column, value] of [
    ['m.layer', options.layer],
    ['m.kind', options.kind],
    ['m.agent', options.agent],
    ['m.session', options.session],
  ] as const) {
    if (value !== undefined) {
      where.push(`${column} = ?`);
      params.push(value);
    }
  }
  if (options.tag !== undefined) {
    where.push('EXISTS (SELECT 1 FROM json_each(m.tags) WHERE json_each.value = ?)');
    params.push(options.tag.toLowerCase());
  }
  if (options.pinned !== undefined) where.push(options.pinned ? 's.pinned = 1' : 'coalesce(s.pinned, 0) = 0');
  const limit = clampLimit(options.limit ?? 50);
  const offset = checkOffset(options.offset ?? 0);
  const filter = where.join(' AND ');
  const total =
    reader.value<number>(
      `SELECT count(*) FROM memories m LEFT JOIN memory_state s ON s.id = m.id WHERE ${filter}`,
      params,
    ) ?? 0;
  const items = reader
    .all<MemoryRow>(
      `${CURRENT_SELECT} WHERE ${filter} ORDER BY m.recorded_at DESC, m.id DESC LIMIT ? OFFSET ?`,
      [...params, limit, offset],
    )
    .map(toMemory);
  return { items, total, next: offset + items.length < total ? offset + items.length : null };
}

export type TimeAxis = 'transaction' | 'valid';

/**
 * "What did we know at `time`" (transaction axis: the versions Engram believed then) or "what was
 * true at `time`" (valid axis: by what Engram believes now).
 */
export function memoriesAsOf(
  reader: SqlReader,
  time: number,
  axis: TimeAxis,
  limit: number,
  layer?: Layer,
  viewer?: Viewer,
): MemoryVersion[] {
  // The version of that time decides what a viewer sees, as it decided then.
  const visible = visibleCondition(viewer);
  const layerFilter = `${layer === undefined ? '' : ' AND m.layer = ?'} AND ${visible.sql}`;
  const tail = [...(layer === undefined ? [] : [layer]), ...visible.params];
  const sql =
    axis === 'transaction'
      ? `SELECT ${VERSION_COLUMNS} FROM memories m WHERE m.recorded_at <= ? AND (m.superseded_at IS NULL OR m.superseded_at > ?) AND m.status = 'active'${layerFilter} ORDER BY m.recorded_at DESC LIMIT ?`
      : `SELECT ${VERSION_COLUMNS} FROM memories m WHERE m.superseded_at IS NULL AND m.status NOT IN ('forgotten', 'archived') AND m.valid_from <= ? AND (m.valid_to IS NULL OR m.valid_to > ?)${layerFilter} ORDER BY m.valid_from DESC LIMIT ?`;
  return reader.all<MemoryRow>(sql, [time, time, ...tail, clampLimit(limit)]).map(toVersion);
}

function checkOffset(offset: number): number {
  if (!Number.isInteger(offset) || offset < 0)
    throw invalidInput(`offset must be a whole number from 0; got ${offset}`);
  return offset;
}

export function clampLimit(limit: number): number {
  if (!Number.isFinite(limit) || limit < 1)
    throw invalidInput(`limit must be a positive number; got ${limit}`);
  return Math.min(Math.floor(limit), 10_000);
}

export function assertStatus(memory: Memory, allowed: readonly Status[], action: string): void {
  if (!allowed.includes(memory.status)) {
    throw new EngramError('INVALID_INPUT', `cannot ${action} memory ${memory.id}: it is ${memory.status}`);
  }
}
