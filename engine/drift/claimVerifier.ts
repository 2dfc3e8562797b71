import type { ClaimCheck } from './claimTypes';
import { unverifiable } from './attribution';
import { isGitFailure } from './gitFailure';
import type { ClaimUnderCheck } from './attribution';
import { verifyCommandClaim, verifyEnvClaim } from './codeClaims';
import { verifyConfigClaim } from './configClaims';
import { verifyRouteClaim } from './routeClaims';
import { declaredWhenWritten, verifyDependencyClaim, verifyScriptClaim } from './manifestClaims';
import { verifyPathClaim } from './pathClaims';
import { verifyAnchorClaim } from './anchorClaims';
import { verifyEventClaim } from './eventClaims';
import { verifySubpathClaim } from './subpathClaims';
import { verifySymbolClaim } from './symbolClaims';
import type { VerificationContext } from './verificationContext';

const VERIFIERS: Record<string, (ctx: VerificationContext, claim: ClaimUnderCheck) => Promise<ClaimCheck>> = {
  path: verifyPathClaim,
  symbol: verifySymbolClaim,
  script: verifyScriptClaim,
  dependency: verifyDependencyClaim,
  env: verifyEnvClaim,
  config: verifyConfigClaim,
  command: verifyCommandClaim,
  route: verifyRouteClaim,
  anchor: verifyAnchorClaim,
  subpath: verifySubpathClaim,
  event: verifyEventClaim,
};

/**
 * Verifies claims all at once: each verifier reads as one claim, and their questions to git and
 * the workspace are batched (see BatchLoader), so a check costs a few git calls, not one per claim.
 */
export function verifyAll(
  ctx: VerificationContext,
  claims: readonly ClaimUnderCheck[],
): Promise<ClaimCheck[]> {
  return Promise.all(claims.map((claim) => verifyOne(ctx, claim).catch(couldNotCheck)));
}

async function verifyOne(ctx: VerificationContext, claim: ClaimUnderCheck): Promise<ClaimCheck> {
  const verify = VERIFIERS[claim.kind];
  if (!verify) return unverifiable(`unknown claim kind ${claim.kind}`);
  if (claim.usedAs === 'package' && (await declaredWhenWritten(ctx, claim)))
    return verifyDependencyClaim(ctx, { ...claim, kind: 'dependency' });
  const check = await verify(ctx, claim);
  return claim.confidence === 'low' && !removedMember(claim, check) && !refusedProjectCall(claim, check)
    ? doubtful(check)
    : check;
}

/**
 * Git failed (twice) on a question the claim needed: no verdict, and the reason, so a re-check
 * asks again. A guess from what little was read (no history read as "never there", no commit)
 * would make one run of a check say what another does not.
 */
function couldNotCheck(error: unknown): ClaimCheck {
  if (!isGitFailure(error)) throw error;
  return unverifiable(`could not be checked, git failed: ${error.message.trim().split('\n')[0] ?? ''}`);
}

/**
 * `reply.getResponseTime()` in an example, through a name the example never bound to the project:
 * whose API it is was in doubt, but the project's own code had that member when the memory was
 * written and a commit since took it out of all of it. That settles it: the project's, and gone.
 * So does a word the code read from its options then and reads nowhere since a commit.
 */
function removedMember(claim: ClaimUnderCheck, check: ClaimCheck): boolean {
  if (claim.kind !== 'symbol' || check.verdict !== 'stale' || check.evidence.commit === undefined)
    return false;
  // `stale` in a list of options: the code read `options.stale` then and no longer reads it.
  if (check.evidence.reason === 'no longer read from the options') return true;
  return claim.subject.includes('.') && check.evidence.reason === 'missing from the code';
}

/**
 * `createProxyMiddleware('/api', opts)` in an example that never imports it: whose function it
 * calls was in doubt, but the project declared it with a typed parameter list that accepted the
 * call when the memory was written, and a commit since changed every declaration so that none
 * does (no commit is found unless one held then). That settles it: the project's, and refused now.
 */
function refusedProjectCall(claim: ClaimUnderCheck, check: ClaimCheck): boolean {
  return (
    claim.kind === 'symbol' &&
    claim.argumentKinds !== undefined &&
    check.verdict === 'stale' &&
    check.evidence.reason.startsWith('no declaration accepts') &&
    check.evidence.doubtful !== true &&
    check.evidence.commit !== undefined
  );
}

/**
 * A low-confidence claim found false is a reason to look, not drift: it keeps its evidence and
 * commit, loses any repair, and never makes its memory stale (see driftStatusOf).
 */
function doubtful(check: ClaimCheck): ClaimCheck {
  if (check.verdict !== 'stale' && check.verdict !== 'moved') return check;
  const { repair: _repair, ...evidence } = check.evidence;
  return { verdict: check.verdict, evidence: { ...evidence, doubtful: true } };
}
