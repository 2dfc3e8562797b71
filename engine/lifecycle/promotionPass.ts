import type { MemoryStore } from '../memory/memoryStore';
import { currentMemory } from '../memory/memoryQueries';
import { CURRENT_SELECT, reviseVersion, toMemory } from '../memory/rows';
import type { MemoryRow } from '../memory/rows';
import type { Layer, Memory } from '../memory/types';
import type { SqlReader, SqlWriter } from '../store/sqlAccess';
import { DEFAULT_LIFECYCLE_RULES, lifecycleFacts } from './lifecycleFacts';
import type { LifecycleRules } from './lifecycleFacts';

/**
 * The seeds' promotion rules (003): a working note becomes an episode once it has lived 30
 * minutes or been recalled twice (and when its session ends, see MemoryStore's expiry); an
 * episode becomes semantic knowledge once it matters (importance >= 0.7) and has been recalled
 * five times.
 */
export const PROMOTION_RULE = {
  workingAfterMs: 30 * 60 * 1000,
  workingAccesses: 2,
  semanticImportance: 0.7,
  semanticAccesses: 5,
};

export interface Promotion {
  memoryId: string;
  from: Layer;
  to: Layer;
  reason: string;
}

/** What would be promoted now (reads only). */
export function plannedPromotions(
  reader: SqlReader,
  now: number,
  rules: LifecycleRules = DEFAULT_LIFECYCLE_RULES,
): Promotion[] {
  const working = current(reader, "m.layer = 'working'").filter(
    (m) =>
      now - m.validFrom >= PROMOTION_RULE.workingAfterMs || m.accessCount >= PROMOTION_RULE.workingAccesses,
  );
  const episodes = current(reader, "m.layer = 'episodic' AND coalesce(s.access_count, 0) >= ?", [
    PROMOTION_RULE.semanticAccesses,
  ]);
  const important = lifecycleFacts(reader, episodes, now, rules).filter(
    (f) => f.importance.score >= PROMOTION_RULE.semanticImportance,
  );
  const byId = new Map(episodes.map((m) => [m.id, m]));
  return [
    ...working.map((m) => ({
      memoryId: m.id,
      from: 'working' as const,
      to: 'episodic' as const,
      reason:
        m.accessCount >= PROMOTION_RULE.workingAccesses
          ? `recalled ${m.accessCount} times`
          : `kept ${Math.floor((now - m.validFrom) / 60_000)} minutes`,
    })),
    ...important.map((f) => ({
      memoryId: f.memoryId,
      from: 'episodic' as const,
      to: 'semantic' as const,
      reason: `importance ${f.importance.score}, recalled ${byId.get(f.memoryId)?.accessCount ?? 0} times`,
    })),
  ];
}

/** Applies promotions: each a new version in its new layer, with a promote event saying why. */
export function promote(
  store: MemoryStore,
  tx: SqlWriter,
  promotions: readonly Promotion[],
  now: number,
): void {
  for (const p of promotions) {
    const memory = currentMemory(tx, p.memoryId);
    if (memory.layer !== p.from || memory.status !== 'active') continue;
    reviseVersion(tx, memory, { layer: p.to }, 'promoted', now);
    store.ledger.append(tx, now, {
      type: 'promote',
      memoryId: p.memoryId,
      agent: 'engram-lifecycle',
      data: { from: p.from, to: p.to, reason: p.reason },
    });
  }
}

function current(reader: SqlReader, where: string, params: Array<string | number> = []): Memory[] {
  return reader
    .all<MemoryRow>(
      `${CURRENT_SELECT} WHERE m.superseded_at IS NULL AND m.status = 'active' AND ${where} ORDER BY m.valid_from, m.id`,
      params,
    )
    .map(toMemory);
}
