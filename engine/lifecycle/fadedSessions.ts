import { CURRENT_SELECT, toMemory } from '../memory/rows';
import type { MemoryRow } from '../memory/rows';
import type { Memory } from '../memory/types';
import type { SqlReader } from '../store/sqlAccess';
import { lifecycleFacts } from './lifecycleFacts';
import type { LifecycleRules } from './lifecycleFacts';
import { DECAYING_LAYERS } from './retention';

/**
 * Episodes whose detail has faded become their session's gist (issue 21, section 3; seed 003's
 * "dream cycle" summarises what has gone cold instead of keeping every turn in recall): a working
 * or episodic memory, not pinned or critical, whose retention (its recalls counted, retention.ts,
 * under the lifecycle settings in force: with decay off nothing fades)
 * has fallen below `maxRetention`, grouped with the other faded memories of its session. Memories
 * without a session group by time: consecutive writes less than `burstGapMs` apart. A group is
 * cut at `maxMembers`, so that a gist stays readable and one long session is several gists.
 */
export const FADED_RULE = { maxRetention: 0.5, burstGapMs: 30 * 60 * 1000, maxMembers: 50, minMembers: 2 };

export function fadedSessions(
  reader: SqlReader,
  now: number,
  exclude: ReadonlySet<string>,
  rules?: LifecycleRules,
): Memory[][] {
  const layers = [...DECAYING_LAYERS];
  const rows = reader
    .all<MemoryRow>(
      `${CURRENT_SELECT} WHERE m.superseded_at IS NULL AND m.status = 'active' AND m.critical = 0
       AND coalesce(s.pinned, 0) = 0 AND m.kind != 'summary'
       AND m.layer IN (${layers.map(() => '?').join(', ')}) ORDER BY m.valid_from, m.id`,
      layers,
    )
    .map(toMemory)
    .filter((m) => !exclude.has(m.id));
  const facts = lifecycleFacts(reader, rows, now, rules);
  const faded = rows.filter((_, i) => facts[i]!.retention < FADED_RULE.maxRetention);
  const groups = new Map<string, Memory[][]>();
  for (const memory of faded) {
    const key = `${shelfOf(memory)}\u0000${memory.session ?? ''}`;
    const runs = groups.get(key) ?? [];
    groups.set(key, runs);
    const last = runs.at(-1);
    const previous = last?.at(-1);
    const joins =
      last !== undefined &&
      previous !== undefined &&
      last.length < FADED_RULE.maxMembers &&
      (memory.session !== null || memory.validFrom - previous.validFrom < FADED_RULE.burstGapMs);
    if (joins) last.push(memory);
    else runs.push([memory]);
  }
  return [...groups.values()].flat().filter((group) => group.length >= FADED_RULE.minMembers);
}

/** Private memories are consolidated only with those of the same agent. */
export function shelfOf(m: Memory): string {
  return m.scope === 'shared' ? 'shared' : `${m.scope}:${m.agent ?? ''}`;
}
