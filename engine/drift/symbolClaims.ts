import type { ClaimCheck } from './claimTypes';
import { goneWord, ok, presentAgain, unverifiable, withCommit } from './attribution';
import type { ClaimUnderCheck } from './attribution';
import type { SymbolDefinition } from './symbolIndex';
import type { FileReader } from './fileHistory';
import { arityOf, parameterListAt, parameterListsOf, parametersOf, sameParameters } from './signatures';
import type { Parameter } from './signatures';
import type { VerificationContext } from './verificationContext';
import { resolveClaimPath } from './workspacePaths';
import { isCodeEvidence } from './evidenceFiles';
import { isPlatformName } from './platformNames';

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
  if (definitions.length === 0 && isPlatformName(claim.subject))
    return unverifiable('a name the JavaScript platform defines, not one of the project');
  // Denied ("there is no `removeListener`"): only a definition makes it the project's API; the
  // code calling a method of that name on something it holds (an emitter) does not.
  if (claim.negated)
    return definitions.length > 0
      ? presentAgain(
          ctx,
          claim,
          name,
          definitions.map((d) => d.file),
        )
      : ok('absent, as the memory says');
  const foundIn = definitions.length > 0 ? definitions.map((d) => d.file) : [...(await ctx.words.get(name))];
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
  // A definition in a test, an example or the docs is not the project's API.
  const all = ctx.symbols.definitionsOf(name).filter((d) => isCodeEvidence(d.file));
  if (container === undefined || !/^[A-Z]/.test(container)) return all;
  const inContainer = all.filter((d) => d.container === container);
  return inContainer.length > 0 ? inContainer : all;
}

/**
 * With a parameter list in the memory: some definition must declare it (by name and, where both
 * give one, type; a bare call only by count). Otherwise stale, with the signature the code has
 * now, which also repairs the memory's text, and the first commit after which the file no longer
 * declared the stated list.
 */
async function signatureCheck(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
  name: string,
  definitions: SymbolDefinition[],
): Promise<ClaimCheck> {
  if (claim.parameters === undefined || definitions.length === 0) return ok('present');
  const stated = claim.signature !== undefined ? parametersOf(claim.signature.slice(1, -1)) : undefined;
  // A call says only that so many arguments are accepted (optional and rest parameters count).
  const accepts = (list: string) => {
    const { min, max } = arityOf(list);
    return (claim.parameters as number) >= min && (claim.parameters as number) <= max;
  };
  const fits = (declared: Parameter[]) =>
    stated ? sameParameters(stated, declared) : declared.length === claim.parameters;
  const declared = definitions.map((d) => ({ definition: d, list: declaredList(d.signature, name) }));
  if (declared.some(({ list }) => list === undefined || (stated ? fits(parametersOf(list)) : accepts(list))))
    return ok('present', { now: definitions[0]?.signature });
  const current = declared[0] as { definition: SymbolDefinition; list: string };
  // A call's argument count alone is never decisive (overloads, `arguments`, wrappers): it asks
  // for review; a stated declaration that no longer matches is drift.
  const check: ClaimCheck = {
    verdict: 'stale',
    evidence: {
      reason: stated ? 'signature changed' : `called with ${claim.parameters} arguments, declared otherwise`,
      now: current.definition.signature,
      ...(stated ? {} : { doubtful: true }),
    },
  };
  if (claim.signatureSpan) check.evidence.repair = { span: claim.signatureSpan, text: `(${current.list})` };
  const reader: FileReader<Parameter[][]> = {
    name: `signature\u0000${name}`,
    read: (text) => (text === undefined ? [] : parameterListsOf(text, name)),
  };
  const commit = await ctx.fileBreak(
    [current.definition.file],
    claim.memoryValidFrom,
    reader,
    (lists) => !lists.some(fits),
    'every',
  );
  return withCommit(check, commit);
}

/** The parameter list of a declaration header (`export function parse(a: T, b): R` -> `a: T, b`). */
function declaredList(signature: string, name: string): string | undefined {
  const at = signature.search(
    new RegExp(`(?<![\\w$])${name.replace(/[$]/g, '\\$')}\\s*(?:<[^()]*>)?\\s*\\(`),
  );
  return parameterListAt(signature, at === -1 ? 0 : at)?.inside;
}
