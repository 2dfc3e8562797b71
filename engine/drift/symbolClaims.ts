import type { ClaimCheck } from './claimTypes';
import { goneWord, ok, presentAgain, unverifiable, withCommit, wordRemoval } from './attribution';
import type { ClaimUnderCheck } from './attribution';
import { signatureParameters } from './symbolIndex';
import type { SymbolDefinition } from './symbolIndex';
import type { VerificationContext } from './verificationContext';
import { resolveClaimPath } from './workspacePaths';

/**
 * A symbol claim: defined in the code index, or at least present in the code (a call of a library
 * function is not drift); in the file the memory names, or moved to another one; with as many
 * parameters as the memory says.
 */
export async function verifySymbolClaim(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
): Promise<ClaimCheck> {
  const parts = claim.subject.split('.');
  const name = parts[parts.length - 1] ?? claim.subject;
  const container = parts.length > 1 ? parts[parts.length - 2] : undefined;
  const definitions = definitionsOf(ctx, name, container);
  const foundIn = definitions.length > 0 ? definitions.map((d) => d.file) : [...(await ctx.words.get(name))];
  if (claim.negated)
    return foundIn.length > 0 ? presentAgain(ctx, claim, name, foundIn) : ok('absent, as the memory says');
  let file: string | undefined;
  if (claim.file !== undefined) {
    const resolved = resolveClaimPath(ctx.root, claim.file);
    if (!resolved.inside) return unverifiable(`refused: ${claim.file} is ${resolved.reason}, never read`);
    file = resolved.relative;
  }
  if (foundIn.length === 0) return goneWord(ctx, claim, name, 'missing from the code', file ? [file] : []);
  if (file !== undefined && !foundIn.includes(file)) {
    const target = [...new Set(foundIn)].sort()[0] as string;
    // Moved: the commit that took it out of the file the memory names (it lives on elsewhere).
    const commit = await ctx.firstChange(name, [file], claim.memoryValidFrom, 'absent');
    return withCommit({ verdict: 'moved', evidence: { reason: 'in another file', target, foundIn } }, commit);
  }
  return signatureCheck(
    ctx,
    claim,
    name,
    definitions.filter((d) => file === undefined || d.file === file),
  );
}

function definitionsOf(
  ctx: VerificationContext,
  name: string,
  container: string | undefined,
): SymbolDefinition[] {
  const all = ctx.symbols.definitions.get(name) ?? [];
  if (container === undefined || !/^[A-Z]/.test(container)) return all;
  const inContainer = all.filter((d) => d.container === container);
  return inContainer.length > 0 ? inContainer : all;
}

async function signatureCheck(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
  name: string,
  definitions: SymbolDefinition[],
): Promise<ClaimCheck> {
  if (claim.parameters === undefined || definitions.length === 0) return ok('present');
  const counts = definitions.map((d) =>
    signatureParameters(d.signature.replace(/\(\s*(?:self|cls)\s*,?/, '(')),
  );
  if (counts.some((c) => c === undefined || c === claim.parameters)) return ok('present');
  const now = definitions[0]?.signature ?? '';
  const removal = await wordRemoval(ctx, claim, name, [definitions[0]?.file ?? '']);
  return withCommit({ verdict: 'stale', evidence: { reason: 'signature changed', now } }, removal.commit);
}
