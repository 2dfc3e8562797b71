import type { ArgumentKind } from './callArguments';
import type { ClaimCheck, ClaimEvidence, CommitEvidence } from './claimTypes';
import type { VerificationContext } from './verificationContext';

/** A claim as checked: its memory's valid-from time says which commit it described. */
export interface ClaimUnderCheck {
  kind: string;
  subject: string;
  negated: boolean;
  file?: string;
  line?: number;
  version?: string;
  parameters?: number;
  argumentKinds?: ArgumentKind[];
  signature?: string;
  signatureSpan?: [number, number];
  value?: string;
  valueSpan?: [number, number];
  isDefault?: boolean;
  method?: string;
  confidence?: 'low';
  /** A Markdown link's target: resolved beside the document only (see ExtractedClaim). */
  linked?: boolean;
  /** A plain word the text says is used (see ExtractedClaim). */
  usedAs?: 'package';
  /** Required and called as a function (see ExtractedClaim). */
  requiredCallable?: boolean;
  /** The required module itself is called (see ExtractedClaim). */
  moduleCalled?: boolean;
  /** The package as npm publishes it (see ExtractedClaim). */
  published?: boolean;
  /** An option of the project (see ExtractedClaim). */
  option?: boolean;
  memoryValidFrom: number;
  /** The file the memory was taken from: relative paths in it may be relative to that file. */
  sourceFile?: string;
}

export function ok(reason: string, extra: Partial<ClaimEvidence> = {}): ClaimCheck {
  return { verdict: 'ok', evidence: { reason, ...extra } };
}

export function unverifiable(reason: string): ClaimCheck {
  return { verdict: 'unverifiable', evidence: { reason } };
}

export function withCommit(check: ClaimCheck, commit: CommitEvidence | undefined): ClaimCheck {
  return commit ? { ...check, evidence: { ...check.evidence, commit } } : check;
}

/**
 * A word (symbol, env var, script key) that is gone now: which commit removed it, by pickaxe over
 * the files that held it when the memory became valid. Undefined `lived` means the word was not
 * in the code then either (the memory named something that was never there).
 */
export async function wordRemoval(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
  needle: string,
  knownFiles: readonly string[] = [],
): Promise<{ lived: boolean; commit?: CommitEvidence; truncated: boolean }> {
  if (!ctx.git) return { lived: true, truncated: false };
  const asOf = await ctx.commitsAt(claim.memoryValidFrom);
  if (asOf.length === 0) return { lived: true, truncated: ctx.git.shallow };
  const then = [...(await ctx.wordsAt(asOf, needle))];
  const files = [...new Set([...knownFiles, ...then])];
  if (then.length === 0 && knownFiles.length === 0) return { lived: false, truncated: false };
  const commit = await ctx.firstChange(needle, files, claim.memoryValidFrom, 'absent');
  return commit ? { lived: true, commit, truncated: false } : { lived: then.length > 0, truncated: false };
}

/** Missing now: stale with the removing commit, or unverifiable when it never was in the code. */
export async function goneWord(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
  needle: string,
  reason: string,
  knownFiles: readonly string[] = [],
): Promise<ClaimCheck> {
  const removal = await wordRemoval(ctx, claim, needle, knownFiles);
  if (!removal.lived && !ctx.git?.shallow)
    return unverifiable('not in the code when the memory was written either (an example or an outside API)');
  const check: ClaimCheck = { verdict: 'stale', evidence: { reason } };
  return withCommit(check, removal.commit);
}

/** Present now although the memory denies it: stale, with the commit that brought it (if known). */
export async function presentAgain(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
  needle: string,
  foundIn: readonly string[],
): Promise<ClaimCheck> {
  const commit = await ctx.firstChange(needle, foundIn.slice(0, 20), claim.memoryValidFrom, 'present');
  // No commit brought it after the memory: it was there already, so the denial never held.
  if (commit === undefined && ctx.git && !ctx.git.shallow)
    return unverifiable('present when the memory was written too: the denial never held');
  return withCommit(
    { verdict: 'stale', evidence: { reason: 'present although denied', foundIn: [...foundIn] } },
    commit,
  );
}
