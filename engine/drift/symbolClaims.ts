import type { ClaimCheck } from './claimTypes';
import { goneWord, ok, presentAgain, unverifiable, withCommit } from './attribution';
import type { ClaimUnderCheck } from './attribution';
import type { SymbolDefinition } from './symbolIndex';
import type { FileReader } from './fileHistory';
import {
  arityOf,
  isDeclarationList,
  parameterInsidesOf,
  parameterListAt,
  parametersOf,
  sameParameters,
} from './signatures';
import { acceptsArguments, isTypedList } from './callArguments';
import type { ArgumentKind } from './callArguments';
import type { Parameter } from './signatures';
import type { VerificationContext } from './verificationContext';
import { resolveClaimPath } from './workspacePaths';
import { neverInRepository } from './readerFiles';
import { isProjectDeclaration, noLongerDefinedOnce } from './memberRemoval';
import { refusedOption } from './refusedOptions';
import { noLongerAnOption } from './optionPresence';
import { defaultReceivers } from './projectBindings';
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
  const check = await verifySymbolPresence(ctx, claim);
  // An option found by its word is present only while the code takes it from its options.
  if (check.verdict !== 'ok' || claim.option !== true || claim.negated || claim.file !== undefined)
    return check;
  if (!/^[A-Za-z_$][\w$]*$/.test(claim.subject)) return check;
  return (await noLongerAnOption(ctx, claim, claim.subject)) ?? check;
}

async function verifySymbolPresence(ctx: VerificationContext, claim: ClaimUnderCheck): Promise<ClaimCheck> {
  const parts = claim.subject.split('.');
  const name = parts[parts.length - 1] ?? claim.subject;
  const container = parts.length > 1 ? parts[parts.length - 2] : undefined;
  const definitions = definitionsOf(ctx, name, container);
  // `thelib.sync`: a member of the package itself, whatever else in the code has one of that name.
  const ownedBy = container !== undefined ? packageOwners(ctx, container) : undefined;
  if (definitions.length === 0 && isPlatformName(claim.subject))
    return unverifiable('a name the JavaScript platform defines, not one of the project');
  if (container !== undefined && ownedBy === undefined && (await isOutsideNamespace(ctx, claim, container)))
    return unverifiable(`a member of ${container}, which the code has never named (another library)`);
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
    // "replace your `NavLink` in `src/routes/invoices.jsx`": a file the repository never had is
    // the reader's; the name is checked as if no file were named.
    if (await neverInRepository(ctx, file)) file = undefined;
  }
  if (foundIn.length === 0) return goneWord(ctx, claim, name, 'missing from the code', file ? [file] : []);
  // Outside the code index only the word was found: decided by the forms that define a name (a
  // member of the package when the memory writes it on the package, of anything otherwise).
  if (file === undefined && (definitions.length === 0 || ownedBy !== undefined)) {
    const removed = await noLongerDefinedOnce(ctx, claim, name, ownedBy);
    if (removed) return removed;
    const refused = definitions.length === 0 ? await refusedOption(ctx, claim, name) : undefined;
    if (refused) return refused;
  }
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

/**
 * `Sequelize.STRING` in a migration guide from another ORM: a namespace or class (capitalised)
 * the code index does not define and no code file named, now or when the memory was written.
 */
async function isOutsideNamespace(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
  container: string,
): Promise<boolean> {
  if (!/^[A-Z][\w$]*$/.test(container) || ctx.symbols.definitionsOf(container).length > 0) return false;
  if ([...(await ctx.words.get(container))].some(isCodeEvidence)) return false;
  if (!ctx.git) return false;
  const then = await ctx.wordsAt(await ctx.commitsAt(claim.memoryValidFrom), container);
  return ![...then].some(isCodeEvidence);
}

/**
 * The owners (lower-cased) that make a member the package's own when the memory writes it on the
 * package (`thelib.sync`, `Thelib.sync`): the package's exports and the names code gives it.
 * Undefined when `container` is not the package.
 */
function packageOwners(ctx: VerificationContext, container: string): Set<string> | undefined {
  // Only that package's names: a fixture's or the docs site's package.json (`tests`, `docs`) names
  // objects the project's code has for other reasons.
  for (const name of ctx.manifests.ownNames) {
    const receivers = [...defaultReceivers(new Set([name]))].map((r) => r.toLowerCase());
    if (receivers.includes(container.toLowerCase())) return new Set(['exports', ...receivers]);
  }
  return undefined;
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
  if (claim.argumentKinds) return callCheck(ctx, claim, name, definitions, claim.argumentKinds);
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
      ...(stated ? {} : { amendable: true }),
      ...(stated ? {} : { doubtful: true }),
    },
  };
  if (claim.signatureSpan) check.evidence.repair = { span: claim.signatureSpan, text: `(${current.list})` };
  const holds = (list: string) => fits(parametersOf(list));
  const commit = await noLongerDeclared(ctx, claim, name, current.definition.file, holds);
  return commit || !(await notDeclaredThen(ctx, claim, name, current.definition.file, holds))
    ? withCommit(check, commit)
    : unverifiable(
        'no file declared that list when the memory was written either (placeholder types, or another API)',
      );
}

/** Files a declaration may have lived in when the memory was written, beside today's: at most this many. */
const MAX_FILES_THEN = 8;

/**
 * The first commit after the memory from which no file declares a parameter list of `name` that
 * `holds` (every version since, not just one). The files are today's declaring file and the code
 * files that named `name` when the memory was written: a function moved to another module after
 * its signature changed is blamed on the change, not left without a commit. Only lists that read
 * as declarations count, never call sites in the same files (tests, doc comments).
 */
async function noLongerDeclared(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
  name: string,
  file: string,
  holds: (list: string) => boolean,
): ReturnType<VerificationContext['fileBreak']> {
  // Where typed declarations decide (today's file is typed), only typed files can have broken it.
  const files = await declaringFilesThen(ctx, claim, name, file, TYPED_FILE_RE.test(file));
  return ctx.fileBreak(
    files,
    claim.memoryValidFrom,
    declaredListsReader(name),
    (lists) => !lists.some(holds),
    'every',
  );
}

/**
 * Whether history says no file declared a list that `holds` when the memory was written:
 * `transformer: { to(value: EntityType) }` in docs that use placeholder types was never the
 * code's list, so no commit broke it. False when history cannot tell.
 */
async function notDeclaredThen(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
  name: string,
  file: string,
  holds: (list: string) => boolean,
): Promise<boolean> {
  const files = await declaringFilesThen(ctx, claim, name, file, false);
  const held = await ctx.heldThen(files, claim.memoryValidFrom, declaredListsReader(name), (lists) =>
    lists.some(holds),
  );
  return held === false;
}

/** Today's declaring file, then the code files that named `name` when the memory was written. */
async function declaringFilesThen(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
  name: string,
  file: string,
  typedOnly: boolean,
): Promise<string[]> {
  const then = [...(await ctx.wordsAt(await ctx.commitsAt(claim.memoryValidFrom), name))]
    .filter((f) => f !== file && isCodeEvidence(f) && (!typedOnly || TYPED_FILE_RE.test(f)))
    .sort()
    .slice(0, MAX_FILES_THEN);
  return [file, ...then];
}

/** The parameter lists a file declares for `name` (never call sites in the same file). */
function declaredListsReader(name: string): FileReader<string[]> {
  return {
    name: `declared parameters\u0000${name}`,
    read: (text) =>
      text === undefined ? [] : parameterInsidesOf(text, name).filter((list) => isDeclarationList(list)),
  };
}

const TYPED_FILE_RE = /\.(?:d\.)?[cm]?ts$/;
const OBJECT_TYPE_RE =
  /^\s*(?:export\s+)?(?:declare\s+)?(?:default\s+)?(?:abstract\s+)?(?:interface|class)\b/;

/**
 * A call passing values (`fastify.listen(3000, cb)`): some declaration must accept as many
 * arguments of those kinds. Typed declarations are the API's contract, so where the project has
 * them they decide, and a call none of them accepts is stale, with the commit after which the
 * declaring file accepted it no more; the memory is never rewritten into a declaration. Untyped
 * code decides only by count, and a count alone is never decisive (overloads, `arguments`).
 */
async function callCheck(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
  name: string,
  definitions: SymbolDefinition[],
  kinds: readonly ArgumentKind[],
): Promise<ClaimCheck> {
  // Type declarations count here (unlike for presence): they are the contract a call is made to.
  const declarations = ctx.symbols.definitionsOf(name).filter((d) => isProjectDeclaration(d.file));
  const all = [...definitions, ...declarations.filter((d) => !definitions.includes(d))];
  const declared = all.map((d) => ({ definition: d, list: declaredList(d.signature, name) }));
  if (declared.some(({ list }) => list === undefined)) return ok('present');
  const lists = declared as Array<{ definition: SymbolDefinition; list: string }>;
  const isObjectType = (type: string) =>
    ctx.symbols.definitionsOf(type).some((d) => OBJECT_TYPE_RE.test(d.signature));
  const typed = lists.filter(
    ({ definition, list }) => TYPED_FILE_RE.test(definition.file) && isTypedList(list),
  );
  const deciding = typed.length > 0 ? typed : lists;
  const accepts = (list: string) => acceptsArguments(list, kinds, isObjectType);
  if (deciding.some(({ list }) => accepts(list)))
    return ok('present', { now: deciding[0]?.definition.signature });
  const current = deciding[0] as { definition: SymbolDefinition; list: string };
  const check: ClaimCheck = {
    verdict: 'stale',
    evidence: {
      reason: `no declaration accepts (${kinds.join(', ')})`,
      now: current.definition.signature,
      amendable: true,
      ...(typed.length > 0 ? {} : { doubtful: true }),
    },
  };
  const commit = await noLongerDeclared(ctx, claim, name, current.definition.file, accepts);
  return commit || !(await notDeclaredThen(ctx, claim, name, current.definition.file, accepts))
    ? withCommit(check, commit)
    : unverifiable('no declaration accepted that call when the memory was written either (another API)');
}

/** The parameter list of a declaration header (`export function parse(a: T, b): R` -> `a: T, b`). */
function declaredList(signature: string, name: string): string | undefined {
  const at = signature.search(
    new RegExp(`(?<![\\w$])${name.replace(/[$]/g, '\\$')}\\s*(?:<[^()]*>)?\\s*\\(`),
  );
  return parameterListAt(signature, at === -1 ? 0 : at)?.inside;
}
