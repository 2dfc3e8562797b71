import type { Memory } from '../memory/types';
import { allForIds } from '../store/idLists';
import type { SqlReader } from '../store/sqlAccess';
import { recalledIds } from './accessRows';
import { probeOutcomes } from './probeOutcomes';
import { importanceOf } from './importance';
import type { ImportanceExplanation } from './importance';
import { DEFAULT_RETENTION, retentionOf } from './retention';
import type { RetentionSettings } from './retention';

const DAY = 24 * 60 * 60 * 1000;

/** When a faded memory is archived: older than, retained less than, less important than, recalled fewer times than. */
export interface ArchiveRule {
  afterDays: number;
  maxRetention: number;
  maxImportance: number;
  maxAccesses: number;
}

/** The seed's archive rule (003): old, barely retained, unimportant and rarely recalled. */
export const ARCHIVE_RULE: ArchiveRule = {
  afterDays: 90,
  maxRetention: 0.15,
  maxImportance: 0.3,
  maxAccesses: 3,
};

/** The rules the facts are judged by: the seeds' unless the settings say otherwise (lifecycleSettings.ts). */
export interface LifecycleRules {
  /** Off: nothing fades (retention 1), so nothing meets the archive rule. */
  decay: boolean;
  retention: RetentionSettings;
  archive: ArchiveRule;
}

export const DEFAULT_LIFECYCLE_RULES: LifecycleRules = {
  decay: true,
  retention: DEFAULT_RETENTION,
  archive: ARCHIVE_RULE,
};

/** What the lifecycle knows of one memory now: its retention, its importance and why. */
export interface LifecycleFacts {
  memoryId: string;
  /** Days since it was written (valid from). */
  ageDays: number;
  /** Days since it was written or last recalled, whichever is later: what retention decays over. */
  idleDays: number;
  retention: number;
  importance: ImportanceExplanation;
  /** Why the archive rule would archive it now, or which of its conditions it does not meet. */
  archive: { due: boolean; unmet: string[] };
}

/** Facts for these current memories (the ledger read once for all of them). */
export function lifecycleFacts(
  reader: SqlReader,
  memories: readonly Memory[],
  now: number,
  rules: LifecycleRules = DEFAULT_LIFECYCLE_RULES,
): LifecycleFacts[] {
  const rule = rules.archive;
  const ids = memories.map((m) => m.id);
  const entities = entityCounts(reader, ids);
  const days = accessDays(reader, new Set(ids));
  const probes = probeOutcomes(reader, ids);
  return memories.map((memory) => {
    const ageDays = Math.max(0, now - memory.validFrom) / DAY;
    const idleDays = Math.max(0, now - Math.max(memory.validFrom, memory.lastAccessedAt ?? 0)) / DAY;
    const retention = !rules.decay
      ? 1
      : retentionOf(
          {
            layer: memory.layer,
            trust: memory.trust,
            pinned: memory.pinned,
            critical: memory.critical,
            ageDays: idleDays,
            accessCount: memory.accessCount,
          },
          rules.retention,
        );
    const importance = importanceOf({
      base: memory.importance,
      accessCount: memory.accessCount,
      retention,
      entityCount: entities.get(memory.id) ?? 0,
      trust: memory.trust,
      accessDays: days.get(memory.id)?.size ?? 0,
      layer: memory.layer,
      confirmations: memory.confirmations,
      probe: probes.get(memory.id),
    });
    const unmet = [
      memory.status === 'active' ? undefined : `status is ${memory.status}`,
      ageDays > rule.afterDays ? undefined : `${Math.floor(ageDays)} of ${rule.afterDays} days old`,
      retention < rule.maxRetention ? undefined : `retention ${round(retention)} >= ${rule.maxRetention}`,
      importance.score < rule.maxImportance
        ? undefined
        : `importance ${importance.score} >= ${rule.maxImportance}`,
      memory.accessCount < rule.maxAccesses
        ? undefined
        : `recalled ${memory.accessCount} times (archived under ${rule.maxAccesses})`,
    ].filter((reason): reason is string => reason !== undefined);
    return {
      memoryId: memory.id,
      ageDays: round(ageDays),
      idleDays: round(idleDays),
      retention: round(retention),
      importance,
      archive: { due: unmet.length === 0, unmet },
    };
  });
}

function entityCounts(reader: SqlReader, ids: readonly string[]): Map<string, number> {
  const rows = allForIds<{ id: string; n: number }>(
    reader,
    (marks) =>
      `SELECT memory_id AS id, count(*) AS n FROM memory_entities WHERE memory_id IN (${marks}) GROUP BY memory_id`,
    ids,
  );
  return new Map(rows.map((row) => [row.id, row.n]));
}

/** Up to this many memories, the ledger is searched for them in SQL; more, it is read once whole. */
const SEARCHED_IDS = 20;

/**
 * Distinct days each memory was read or recalled, from the event ledger: reads name their memory,
 * recalls list theirs in the event's data. A few memories (explain, a memory document) are looked
 * up by id; a pass over many reads the read and recall events once.
 */
function accessDays(reader: SqlReader, ids: ReadonlySet<string>): Map<string, Set<number>> {
  const days = new Map<string, Set<number>>();
  const add = (id: string, at: number) => {
    if (!ids.has(id)) return;
    let set = days.get(id);
    if (!set) days.set(id, (set = new Set()));
    set.add(Math.floor(at / DAY));
  };
  type EventRow = { at: number; type: string; memoryId: string | null; data: string | null };
  const rows =
    ids.size <= SEARCHED_IDS
      ? [...ids].flatMap((id) =>
          reader.all<EventRow>(
            `SELECT at, type, memory_id AS memoryId, data FROM events
             WHERE (type = 'read' AND memory_id = ?1) OR (type = 'recall' AND instr(data, ?1) > 0)`,
            [id],
          ),
        )
      : reader.all<EventRow>(
          "SELECT at, type, memory_id AS memoryId, data FROM events WHERE type IN ('read', 'recall')",
        );
  for (const row of rows) {
    if (row.type === 'read' && row.memoryId) add(row.memoryId, row.at);
    else if (row.data) for (const id of recalledIds(row.data)) add(id, row.at);
  }
  // Access rows older than the ledger's retention window live on as daily aggregates (ledgerPruning.ts).
  const folded =
    ids.size <= SEARCHED_IDS
      ? [...ids].flatMap((id) =>
          reader.all<{ memoryId: string; day: number }>(
            'SELECT memory_id AS memoryId, day FROM access_daily WHERE memory_id = ?',
            [id],
          ),
        )
      : reader.all<{ memoryId: string; day: number }>('SELECT memory_id AS memoryId, day FROM access_daily');
  for (const row of folded) add(row.memoryId, row.day * DAY);
  return days;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
