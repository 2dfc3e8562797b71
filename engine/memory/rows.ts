import type { SqlWriter } from '../store/sqlAccess';
import type { SqlValue } from '../store/statementLog';
import type {
  ChangeKind,
  Kind,
  Layer,
  Memory,
  MemoryVersion,
  Scope,
  SourceRef,
  Status,
  Trust,
} from './types';

/** A row of `memories` joined with `memory_state`, as sql.js returns it. */
export interface MemoryRow {
  id: string;
  version: number;
  layer: string;
  kind: string;
  content: string;
  context: string | null;
  tags: string;
  importance: number;
  trust: string;
  critical: number;
  scope: string;
  agent: string | null;
  session: string | null;
  conflict_key: string | null;
  content_hash: string;
  source: string | null;
  status: string;
  status_reason: string | null;
  superseded_by: string | null;
  valid_from: number;
  valid_to: number | null;
  recorded_at: number;
  superseded_at: number | null;
  change: string;
  pinned?: number | null;
  access_count?: number | null;
  last_accessed_at?: number | null;
  confirmations?: number | null;
}

export const VERSION_COLUMNS =
  'm.id, m.version, m.layer, m.kind, m.content, m.context, m.tags, m.importance, m.trust, m.critical, ' +
  'm.scope, m.agent, m.session, m.conflict_key, m.content_hash, m.source, m.status, m.status_reason, ' +
  'm.superseded_by, m.valid_from, m.valid_to, m.recorded_at, m.superseded_at, m.change';

/** Current versions with their counters. Use with `WHERE m.superseded_at IS NULL AND ...`. */
export const CURRENT_SELECT =
  `SELECT ${VERSION_COLUMNS}, s.pinned, s.access_count, s.last_accessed_at, s.confirmations ` +
  'FROM memories m LEFT JOIN memory_state s ON s.id = m.id';

export function toVersion(row: MemoryRow): MemoryVersion {
  return {
    id: row.id,
    version: row.version,
    layer: row.layer as Layer,
    kind: row.kind as Kind,
    content: row.content,
    context: row.context,
    tags: JSON.parse(row.tags) as string[],
    importance: row.importance,
    trust: row.trust as Trust,
    critical: row.critical === 1,
    scope: row.scope as Scope,
    agent: row.agent,
    session: row.session,
    conflictKey: row.conflict_key,
    contentHash: row.content_hash,
    source: row.source === null ? null : (JSON.parse(row.source) as SourceRef),
    status: row.status as Status,
    statusReason: row.status_reason,
    supersededBy: row.superseded_by,
    validFrom: row.valid_from,
    validTo: row.valid_to,
    recordedAt: row.recorded_at,
    supersededAt: row.superseded_at,
    change: row.change as ChangeKind,
  };
}

/**
 * The version with its counters added in place, not `{ ...toVersion(row), ... }`: that spread of
 * 24 fields built each memory in about 10 µs (V8's slow path), so reading 1,000 rows took twice
 * as long as the read itself.
 */
export function toMemory(row: MemoryRow): Memory {
  const memory = toVersion(row) as Memory;
  memory.pinned = row.pinned === 1;
  memory.accessCount = row.access_count ?? 0;
  memory.lastAccessedAt = row.last_accessed_at ?? null;
  memory.confirmations = row.confirmations ?? 1;
  return memory;
}

export const VERSION_INSERT =
  'INSERT INTO memories (id, version, layer, kind, content, context, tags, importance, trust, critical, scope, ' +
  'agent, session, conflict_key, content_hash, source, status, status_reason, superseded_by, valid_from, ' +
  'valid_to, recorded_at, superseded_at, change)';

/** The values of a version's row, in VERSION_INSERT's column order. */
export function versionRow(v: MemoryVersion): SqlValue[] {
  return [
    v.id,
    v.version,
    v.layer,
    v.kind,
    v.content,
    v.context,
    JSON.stringify(v.tags),
    v.importance,
    v.trust,
    v.critical ? 1 : 0,
    v.scope,
    v.agent,
    v.session,
    v.conflictKey,
    v.contentHash,
    v.source === null ? null : JSON.stringify(v.source),
    v.status,
    v.statusReason,
    v.supersededBy,
    v.validFrom,
    v.validTo,
    v.recordedAt,
    v.supersededAt,
    v.change,
  ];
}

/** Inserts one version row. Versions are immutable once their successor exists. */
export function insertVersion(tx: SqlWriter, v: MemoryVersion): void {
  tx.run(`${VERSION_INSERT} VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`, versionRow(v));
}

/** Closes the current version (transaction time) and records its successor with `patch` applied. */
export function reviseVersion(
  tx: SqlWriter,
  current: MemoryVersion,
  patch: Partial<MemoryVersion>,
  change: ChangeKind,
  now: number,
): void {
  tx.run('UPDATE memories SET superseded_at = ? WHERE id = ? AND superseded_at IS NULL', [now, current.id]);
  const next: MemoryVersion = {
    id: current.id,
    version: current.version,
    layer: current.layer,
    kind: current.kind,
    content: current.content,
    context: current.context,
    tags: current.tags,
    importance: current.importance,
    trust: current.trust,
    critical: current.critical,
    scope: current.scope,
    agent: current.agent,
    session: current.session,
    conflictKey: current.conflictKey,
    contentHash: current.contentHash,
    source: current.source,
    status: current.status,
    statusReason: current.statusReason,
    supersededBy: current.supersededBy,
    validFrom: current.validFrom,
    validTo: current.validTo,
    ...patch,
  } as MemoryVersion;
  insertVersion(tx, { ...next, version: current.version + 1, recordedAt: now, supersededAt: null, change });
}
