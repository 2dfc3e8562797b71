import type { ClaimForCheck } from './claimStore';
import type { ClaimCheck } from './claimTypes';

/**
 * "`disableGlobbing` (default: `false`)" states two things: the option exists, and its default.
 * When a commit took the option out of the code, the default went with it, although no declared
 * default is left to compare with (the default's own check can only say "unverifiable"). So a
 * default claim whose option, named in the same memory, is confidently missing from the code is
 * false too, since the same commit. Only a missing option decides: a default that merely cannot
 * be found stays unverifiable. The option may be written as a symbol or as a config key
 * ("`options.enforce` is a boolean. Defaults to `false`.").
 */
export function withDefaultsOfGoneOptions(
  claims: readonly ClaimForCheck[],
  checks: readonly ClaimCheck[],
): ClaimCheck[] {
  const gone = new Map<string, ClaimCheck>();
  claims.forEach((claim, i) => {
    const check = checks[i] as ClaimCheck;
    if (isOptionClaim(claim) && !claim.negated && isConfidentlyMissing(check))
      gone.set(`${claim.memoryId}\u0000${lastName(claim.subject)}`, check);
  });
  if (gone.size === 0) return [...checks];
  return claims.map((claim, i) => {
    const check = checks[i] as ClaimCheck;
    if (claim.kind !== 'config' || claim.isDefault !== true || claim.negated) return check;
    if (check.verdict !== 'unverifiable') return check;
    const option = gone.get(`${claim.memoryId}\u0000${lastName(claim.subject)}`);
    if (!option) return check;
    return {
      verdict: 'stale',
      evidence: {
        reason: `the option is gone (${lastName(claim.subject)}: ${option.evidence.reason})`,
        ...(option.evidence.commit ? { commit: option.evidence.commit } : {}),
      },
    };
  });
}

/** The option itself: as a symbol (`disableGlobbing`) or as a config key (`options.enforce`). */
function isOptionClaim(claim: ClaimForCheck): boolean {
  return claim.kind === 'symbol' || (claim.kind === 'config' && claim.isDefault !== true);
}

/** Why a claim about a name is false when the name is gone (symbolClaims.ts, configClaims.ts). */
const GONE_REASONS = new Set(['missing from the code', 'config key no longer in the workspace']);

function isConfidentlyMissing(check: ClaimCheck): boolean {
  return (
    check.verdict === 'stale' && check.evidence.doubtful !== true && GONE_REASONS.has(check.evidence.reason)
  );
}

function lastName(subject: string): string {
  return subject.slice(subject.lastIndexOf('.') + 1);
}
