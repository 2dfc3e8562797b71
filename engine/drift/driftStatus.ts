import type { ClaimCheck, DriftStatus } from './claimTypes';

/**
 * A memory's drift from its claims' verdicts (see DriftStatus). A stale claim that carries its
 * repair (a changed signature or config value) counts with the moved ones: a rewrite fixes it.
 */
export function driftStatusOf(all: readonly ClaimCheck[]): DriftStatus {
  if (all.length === 0) return 'none';
  // Doubtful findings (low-confidence claims) ask for review; they never make a memory drift.
  const checks = all.filter((c) => c.evidence.doubtful !== true);
  if (checks.length === 0) return 'unverifiable';
  const count = (verdict: ClaimCheck['verdict']) => checks.filter((c) => c.verdict === verdict).length;
  const repairable = checks.filter((c) => c.verdict === 'stale' && c.evidence.repair !== undefined).length;
  const [good, stale, moved] = [count('ok'), count('stale') - repairable, count('moved') + repairable];
  if (good + stale + moved === 0) return 'unverifiable';
  if (stale === 0) return moved === 0 ? 'ok' : 'moved';
  return good + moved === 0 ? 'dead' : 'stale';
}

export const DRIFTED: ReadonlySet<DriftStatus> = new Set(['moved', 'stale', 'dead']);

/**
 * 0 (nothing drifted) to 100 (every memory that could be checked drifted): the share of memories
 * with at least one checkable claim whose status is moved, stale or dead.
 */
export function driftScore(statuses: readonly DriftStatus[]): number {
  const checkable = statuses.filter((s) => s !== 'none' && s !== 'unverifiable');
  if (checkable.length === 0) return 0;
  return Math.round((100 * checkable.filter((s) => DRIFTED.has(s)).length) / checkable.length);
}

/** When a memory stopped being true: the earliest commit that made one of its claims false. */
export function falseSince(checks: readonly ClaimCheck[]): number | undefined {
  const times = checks
    .filter((c) => c.verdict === 'stale' && c.evidence.doubtful !== true)
    .map((c) => c.evidence.commit?.time)
    .filter((t): t is number => t !== undefined && Number.isFinite(t));
  return times.length > 0 ? Math.min(...times) : undefined;
}
