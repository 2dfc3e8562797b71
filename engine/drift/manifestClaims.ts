import type { ClaimCheck } from './claimTypes';
import { ok, unverifiable, withCommit } from './attribution';
import type { ClaimUnderCheck } from './attribution';
import type { VerificationContext } from './verificationContext';

/** A package script or Makefile target (`npm run build`, `make lint`). */
export async function verifyScriptClaim(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
): Promise<ClaimCheck> {
  const { manifests } = ctx;
  if (manifests.files.length === 0) return unverifiable('no manifest declares scripts here');
  const declaredIn = manifests.scripts.get(claim.subject);
  if (claim.negated)
    return declaredIn
      ? manifestChange(ctx, claim, `"${claim.subject}"`, declaredIn, 'script present although denied')
      : ok('absent');
  if (declaredIn) return ok('declared', { foundIn: declaredIn });
  return manifestChange(ctx, claim, `"${claim.subject}"`, manifests.files, 'script no longer declared');
}

/** A dependency, with the major version the memory gives, if any. */
export async function verifyDependencyClaim(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
): Promise<ClaimCheck> {
  const { manifests } = ctx;
  if (manifests.files.length === 0) return unverifiable('no manifest declares dependencies here');
  const name = claim.subject.toLowerCase();
  const declared = manifests.dependencies.get(name);
  const own = manifests.ownNames.has(name);
  if (claim.negated)
    return declared
      ? manifestChange(
          ctx,
          claim,
          `"${claim.subject}"`,
          [declared.file],
          'dependency present although denied',
        )
      : ok('absent');
  if (own) return ok('the project itself');
  if (!declared)
    return manifestChange(ctx, claim, `"${claim.subject}"`, manifests.files, 'dependency dropped');
  if (claim.version !== undefined && majorOf(claim.version) !== majorOf(declared.version)) {
    const check: ClaimCheck = {
      verdict: 'stale',
      evidence: { reason: 'version changed', now: declared.version },
    };
    return withCommit(check, await since(ctx, claim, declared.version, [declared.file]));
  }
  return ok('declared', { foundIn: [declared.file], now: declared.version });
}

function majorOf(version: string): string {
  return /(\d+)/.exec(version)?.[1] ?? version;
}

async function manifestChange(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
  needle: string,
  files: readonly string[],
  reason: string,
): Promise<ClaimCheck> {
  return withCommit(
    { verdict: 'stale', evidence: { reason, foundIn: [...files] } },
    await since(ctx, claim, needle, files),
  );
}

/** The manifest commit after the memory's time that changed how often `needle` occurs. */
async function since(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
  needle: string,
  files: readonly string[],
) {
  const asOf = ctx.git ? await ctx.commitAt(claim.memoryValidFrom) : undefined;
  return ctx.pickaxe(needle, files, asOf);
}
