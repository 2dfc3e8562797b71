import type { ClaimCheck } from './claimTypes';
import { goneWord, ok, presentAgain } from './attribution';
import type { ClaimUnderCheck } from './attribution';
import type { VerificationContext } from './verificationContext';

/** An environment variable the code is said to read: its name must still occur in the code. */
export async function verifyEnvClaim(ctx: VerificationContext, claim: ClaimUnderCheck): Promise<ClaimCheck> {
  const foundIn = [...(await ctx.words.get(claim.subject))];
  if (claim.negated)
    return foundIn.length > 0 ? presentAgain(ctx, claim, claim.subject, foundIn) : ok('absent');
  return foundIn.length > 0
    ? ok('read by the code')
    : goneWord(ctx, claim, claim.subject, 'no longer in the code');
}

/** `engram drift`: the program is still a bin of the project and its sub-command is named in the code. */
export async function verifyCommandClaim(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
): Promise<ClaimCheck> {
  const [program, sub] = claim.subject.split(/\s+/);
  if (!program || !ctx.manifests.programs.has(program))
    return {
      verdict: 'stale',
      evidence: { reason: `${program ?? 'the program'} is no longer a program of the project` },
    };
  if (!sub) return ok('program present');
  const quoted = [`'${sub}'`, `"${sub}"`, `\`${sub}\``];
  const found = await Promise.all(quoted.map((q) => ctx.literals.get(q)));
  const foundIn = found.flatMap((files) => [...files]);
  if (claim.negated)
    return foundIn.length > 0 ? presentAgain(ctx, claim, quoted[0] as string, foundIn) : ok('absent');
  return foundIn.length > 0
    ? ok('sub-command present')
    : goneWord(ctx, claim, sub, `sub-command ${sub} not found`);
}
