import { CURRENT_SELECT, VERSION_COLUMNS, toMemory, toVersion } from '../memory/rows';
import type { MemoryRow } from '../memory/rows';
import type { Memory } from '../memory/types';
import type { SqlReader } from '../store/sqlAccess';

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
    // Counters added in place: a spread of the version is V8's slow path (see toMemory).
    const memory = toVersion(row) as Memory;
    memory.pinned = state?.pinned ?? false;
    memory.accessCount = state?.accessCount ?? 0;
    memory.lastAccessedAt = state?.lastAccessedAt ?? null;
    memory.confirmations = state?.confirmations ?? 1;
    then.set(row.id, memory);
  }
  return then;
}

function placeholders(ids: readonly string[]): string {
  return ids.map(() => '?').join(', ');
}
