import type { ClaimCheck } from './claimTypes';
import type { ClaimUnderCheck } from './attribution';
import { verifyCommandClaim, verifyEnvClaim } from './codeClaims';
import { verifyConfigClaim } from './configClaims';
import { verifyRouteClaim } from './routeClaims';
import { verifyDependencyClaim, verifyScriptClaim } from './manifestClaims';
import { verifyPathClaim } from './pathClaims';
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
};

/**
 * Verifies claims all at once: each verifier reads as one claim, and their questions to git and
 * the workspace are batched (see BatchLoader), so a check costs a few git calls, not one per claim.
 */
export function verifyAll(
  ctx: VerificationContext,
  claims: readonly ClaimUnderCheck[],
): Promise<ClaimCheck[]> {
  return Promise.all(
    claims.map((claim) => {
      const verify = VERIFIERS[claim.kind];
      return verify
        ? verify(ctx, claim)
        : Promise.resolve<ClaimCheck>({
            verdict: 'unverifiable',
            evidence: { reason: `unknown claim kind ${claim.kind}` },
          });
    }),
  );
}
