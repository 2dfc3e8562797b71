import type { MemoryStore } from '../memory/memoryStore';
import { CURRENT_SELECT, toMemory } from '../memory/rows';
import type { MemoryRow } from '../memory/rows';
import { DEFAULT_LIFECYCLE_RULES, lifecycleFacts } from './lifecycleFacts';
import type { LifecycleRules } from './lifecycleFacts';
import { DECAYING_LAYERS } from './retention';
import { plannedPromotions, promote } from './promotionPass';
import type { Promotion } from './promotionPass';
import { applyPeerCards, planPeerCards } from './storedPeerCards';
import type { PeerCardPlan } from './storedPeerCards';

const DAY = 24 * 60 * 60 * 1000;
const LIFECYCLE = { agent: 'engram-lifecycle' };

export interface LifecyclePassResult {
  dryRun: boolean;
  /** Working notes kept as episodes, episodes that became knowledge (promotionPass.ts). */
  promoted: Promotion[];
  /** Memories old enough and rarely enough recalled to be considered. */
  considered: number;
  archived: Array<{
    memoryId: string;
    excerpt: string;
    retention: number;
    importance: number;
    reason: string;
  }>;
  /** Peer cards created, rewritten or archived because their entity's memories changed (storedPeerCards.ts). */
  peerCards: PeerCardPlan;
}

/**
 * One lifecycle run: promotes what the promotion rules say has earned it, then archives what the
 * archive rule says has faded (lifecycleFacts.ts: the seeds' ARCHIVE_RULE unless `rules` say otherwise): never deleted, recoverable with
 * restore, each with its reason, all in one transaction (a crash leaves none or all of it) and
 * the run itself recorded as an event. A dry run only plans.
 */
export function runLifecyclePass(
  store: MemoryStore,
  options: { dryRun: boolean; rules?: LifecycleRules },
): LifecyclePassResult {
  const now = store.clock();
  const rules = options.rules ?? DEFAULT_LIFECYCLE_RULES;
  const promoted = store.read((r) => plannedPromotions(r, now, rules));
  const promoting = new Set(promoted.map((p) => p.memoryId));
  const layers = [...DECAYING_LAYERS];
  // Only what can meet the rule is read: the other conditions are decided per memory below.
  const candidates = store.read((r) =>
    r
      .all<MemoryRow>(
        `${CURRENT_SELECT} WHERE m.superseded_at IS NULL AND m.status = 'active' AND m.critical = 0
         AND coalesce(s.pinned, 0) = 0 AND coalesce(s.access_count, 0) < ? AND m.valid_from < ?
         AND m.layer IN (${layers.map(() => '?').join(', ')}) ORDER BY m.valid_from, m.id`,
        [rules.archive.maxAccesses, now - rules.archive.afterDays * DAY, ...layers],
      )
      .map(toMemory),
  );
  const facts = store.read((r) => lifecycleFacts(r, candidates, now, rules));
  const due = facts.filter((f) => f.archive.due && !promoting.has(f.memoryId));
  const byId = new Map(candidates.map((m) => [m.id, m]));
  const archived = due.map((f) => ({
    memoryId: f.memoryId,
    excerpt: (byId.get(f.memoryId)?.content ?? '').slice(0, 120),
    retention: f.retention,
    importance: f.importance.score,
    reason: `faded: ${Math.floor(f.ageDays)} days old, retention ${f.retention}, importance ${f.importance.score}, recalled ${byId.get(f.memoryId)?.accessCount ?? 0} times`,
  }));
  const peerCards = store.read((r) => planPeerCards(r));
  if (!options.dryRun) applyPeerCards(store, peerCards);
  if (!options.dryRun && (archived.length > 0 || promoted.length > 0)) {
    store.write((tx) => {
      promote(store, tx, promoted, now);
      for (const a of archived) store.archive(a.memoryId, LIFECYCLE, a.reason);
      store.ledger.append(tx, now, {
        type: 'lifecycle',
        agent: LIFECYCLE.agent,
        data: { promoted: promoted.length, considered: candidates.length, archived: archived.length },
      });
    });
  }
  return { dryRun: options.dryRun, promoted, considered: candidates.length, archived, peerCards };
}
