import type { ClaimCheck, DriftStatus } from './claimTypes';
import { textRolesOf } from './textRoles';

/**
 * A memory's drift from its claims' verdicts (see DriftStatus). A stale claim that carries its
 * repair (a changed signature or config value) counts with the moved ones: a rewrite fixes it.
 */
export function driftStatusOf(all: readonly ClaimCheck[], saysMore = false): DriftStatus {
  if (all.length === 0) return 'none';
  // Doubtful findings (low-confidence claims) ask for review; they never make a memory drift.
  const checks = all.filter((c) => c.evidence.doubtful !== true);
  if (checks.length === 0) return 'unverifiable';
  const count = (verdict: ClaimCheck['verdict']) => checks.filter((c) => c.verdict === verdict).length;
  const repairable = checks.filter((c) => c.verdict === 'stale' && c.evidence.repair !== undefined).length;
  const [good, stale, moved] = [count('ok'), count('stale') - repairable, count('moved') + repairable];
  if (good + stale + moved === 0) return 'unverifiable';
  if (stale === 0) return moved === 0 ? 'ok' : 'moved';
  // Dead means everything the memory says is false; a sentence no claim reads may still hold, and
  // a call no declaration accepts now still names a function that exists.
  const amendable = checks.some((c) => c.verdict === 'stale' && c.evidence.amendable === true);
  return good + moved === 0 && !saysMore && !amendable ? 'dead' : 'stale';
}

const FENCE_RE = /^[ \t]*(```|~~~)[^\n]*\n[\s\S]*?^[ \t]*\1[ \t]*$/gm;
const SENTENCE_RE = /[^.!?\n]+(?:[.!?](?=\s|$)|\n|$)/g;
const MIN_SENTENCE_WORDS = 4;
const MIN_LINE_WORDS = 2;
/** A clause after `;`, `, and`, `, but` or a bare `and`/`but`: the stretches between them. */
const CLAUSE_RE = /(?:^|;|,?\s+(?:and|but)\s+)((?:(?!;|\s(?:and|but)\s).)+)/g;
const MIN_CLAUSE_WORDS = 6;

/**
 * Whether the memory says something none of the given claims (its false ones) reads: a sentence
 * of at least four words outside code fences, or a line of two words a command printed, that no
 * claim span touches. Such a memory is stale (reviewed), never invalidated as dead on the strength of
 * its other statements.
 */
export function saysMoreThan(text: string, spans: ReadonlyArray<readonly [number, number]>): boolean {
  const untouched = (start: number, end: number) => !spans.some(([a, b]) => a < end && start < b);
  const prose = text.replace(FENCE_RE, (fence) => ' '.repeat(fence.length));
  for (const m of prose.matchAll(SENTENCE_RE)) {
    const start = m.index ?? 0;
    if (wordsIn(m[0]) >= MIN_SENTENCE_WORDS && untouched(start, start + m[0].length)) return true;
    // "pass `DEBUG=x*` and upon boot you'll see the middleware used": a coordinated clause of its own.
    for (const clause of m[0].matchAll(CLAUSE_RE)) {
      const at = start + (clause.index ?? 0);
      if (wordsIn(clause[0]) >= MIN_CLAUSE_WORDS && untouched(at, at + clause[0].length)) return true;
    }
  }
  // What a command printed, line by line, is what the memory shows happens: it says more. The
  // other lines of an example illustrate the claim and say nothing on their own.
  const roles = textRolesOf(text);
  for (const { fence, role } of roles.fences) {
    for (const line of text.slice(fence.start, fence.end).matchAll(/[^\n]+/g)) {
      const start = fence.start + (line.index ?? 0);
      if (role !== 'output' || roles.roleAt(start) !== 'output') continue;
      if (wordsIn(line[0]) >= MIN_LINE_WORDS && untouched(start, start + line[0].length)) return true;
    }
  }
  return false;
}

function wordsIn(text: string): number {
  return (text.match(/[\p{L}\p{N}_`'-]+/gu) ?? []).length;
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
