import { CURRENT_SELECT, VERSION_COLUMNS, toMemory, toVersion } from '../memory/rows';
import type { MemoryRow } from '../memory/rows';
import type { Kind, Layer, Memory, Status, Trust } from '../memory/types';
import type { SqlReader } from '../store/sqlAccess';

/** What ranking and filtering a candidate need: no text, no JSON columns. */
export type CandidateFields = Pick<
  Memory,
  | 'id'
  | 'layer'
  | 'kind'
  | 'importance'
  | 'trust'
  | 'critical'
  | 'session'
  | 'status'
  | 'validFrom'
  | 'pinned'
>;

const CANDIDATE_SELECT =
  'SELECT m.id, m.layer, m.kind, m.importance, m.trust, m.critical, m.session, m.status, ' +
  'm.valid_from AS validFrom, s.pinned FROM memories m LEFT JOIN memory_state s ON s.id = m.id';

interface CandidateRow {
  id: string;
  layer: string;
  kind: string;
  importance: number;
  trust: string;
  critical: number;
  session: string | null;
  status: string;
  validFrom: number;
  pinned: number | null;
}

/**
 * The current versions' ranking fields of a recall's candidate pool. The pool is three times `k`
 * and most of it is dropped: reading whole rows for it (content, context, tags and source parsed)
 * was a quarter of a recall at 10k memories; whole rows are read for the final `k` only.
 */
export function candidateFields(reader: SqlReader, ids: readonly string[]): Map<string, CandidateFields> {
  if (ids.length === 0) return new Map();
  const rows = reader.all<CandidateRow>(
    `${CANDIDATE_SELECT} WHERE m.superseded_at IS NULL AND m.id IN (${placeholders(ids)})`,
    [...ids],
  );
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        layer: row.layer as Layer,
        kind: row.kind as Kind,
        importance: row.importance,
        trust: row.trust as Trust,
        critical: row.critical === 1,
        session: row.session,
        status: row.status as Status,
        validFrom: row.validFrom,
        pinned: row.pinned === 1,
      },
    ]),
  );
}

/** Current memories by id; with asOf, the version Engram believed at that time. */
export function fullMemories(reader: SqlReader, ids: readonly string[], asOf?: number): Map<string, Memory> {
  if (ids.length === 0) return new Map();
  const current = new Map(
    reader
      .all<MemoryRow>(`${CURRENT_SELECT} WHERE m.superseded_at IS NULL AND m.id IN (${placeholders(ids)})`, [
        ...ids,
      ])
      .map((row) => [row.id, toMemory(row)]),
  );
  if (asOf === undefined) return current;
  const then = new Map<string, Memory>();
  for (const row of reader.all<MemoryRow>(
    `SELECT ${VERSION_COLUMNS} FROM memories m WHERE m.id IN (${placeholders(ids)}) AND m.recorded_at <= ? AND (m.superseded_at IS NULL OR m.superseded_at > ?)`,
    [...ids, asOf, asOf],
  )) {
    const state = current.get(row.id);
    then.set(row.id, {
      ...toVersion(row),
      pinned: state?.pinned ?? false,
      accessCount: state?.accessCount ?? 0,
      lastAccessedAt: state?.lastAccessedAt ?? null,
      confirmations: state?.confirmations ?? 1,
    });
  }
  return then;
}

function placeholders(ids: readonly string[]): string {
  return ids.map(() => '?').join(', ');
}
