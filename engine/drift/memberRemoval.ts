import type { ClaimCheck } from './claimTypes';
import { withCommit } from './attribution';
import type { ClaimUnderCheck } from './attribution';
import type { FileReader } from './fileHistory';
import type { VerificationContext } from './verificationContext';
import { sourceText } from './sourceText';
import { memberOwners, ownersInCode, withoutComments } from './memberDefinitions';
import { isCodeEvidence } from './evidenceFiles';

/*
 * Whether a name outside the code index was removed: the project defined it (or read it from its
 * options) when the memory was written, and since a commit no code does.
 */

const DECLARATION_FILE_RE = /\.d\.[cm]?ts$/;

/** Files read now for a word's definitions (plain reads); a word in more is too common to decide by. */
const MAX_MEMBER_FILES_NOW = 200;
/** Files whose history is read for a word's definitions (each a walk of the file's versions). */
const MAX_MEMBER_FILES_THEN = 40;

/**
 * A name outside the code index (`thelib.sync = function`, `Runner.prototype.run = ...`): the word
 * surviving in an option read or an error message ("`sync` was removed") is no definition, and
 * when the memory writes it on the package (`thelib.sync`), neither is another object's method of
 * that name. Stale when the code defined it (the package owned it) when the memory was written
 * and, since a commit, nowhere does (see memberOwners). Undefined: present, as far as anyone can tell.
 */
async function noLongerDefined(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
  name: string,
  filesNow: readonly string[],
  ownedBy: ReadonlySet<string> | undefined,
): Promise<ClaimCheck | undefined> {
  // Typed declarations count as definitions here: an option key lives in an options interface.
  const declarations = [...(await ctx.literals.get(name))].filter(isProjectDeclaration);
  const codeNow = [...filesNow.filter(isCodeEvidence), ...declarations];
  if (!ctx.git || codeNow.length > MAX_MEMBER_FILES_NOW) return undefined;
  const owned = (owners: ReadonlySet<string>) =>
    ownedBy ? [...owners].some((o) => ownedBy.has(o.toLowerCase())) : owners.size > 0;
  const defines = (text: string | undefined) => text !== undefined && owned(memberOwners(text, name));
  if (codeNow.some((file) => owned(ownersNow(ctx, file, name)))) return undefined;
  const then = [...(await ctx.wordsAt(await ctx.commitsAt(claim.memoryValidFrom), name))].filter(
    isCodeEvidence,
  );
  if (then.length === 0 || then.length > MAX_MEMBER_FILES_THEN) return undefined;
  const reader: FileReader<boolean> = {
    name: `member\u0000${name}\u0000${[...(ownedBy ?? [])].sort().join(',')}`,
    read: defines,
  };
  if (!(await ctx.heldThen(then, claim.memoryValidFrom, reader, (defined) => defined)))
    return ownedBy ? undefined : noLongerReadOption(ctx, claim, name, codeNow, then);
  const commit = await ctx.fileBreak(then, claim.memoryValidFrom, reader, (defined) => !defined, 'every');
  if (!commit) return undefined;
  const reason = ownedBy ? 'no longer a member of the package' : 'no longer defined in the code';
  // Still read as a member (`this.options.ws === true`): the code may still take it, defined by a
  // type from another package (an options interface extending its proxy library's), or read a
  // member of that name of something else. Asks for review, never decides.
  if (!ownedBy && codeNow.some((file) => readsMember(ctx, file, name)))
    return withCommit(
      { verdict: 'stale', evidence: { reason: `${reason}, though still read as a member`, doubtful: true } },
      commit,
    );
  return withCommit({ verdict: 'stale', evidence: { reason } }, commit);
}

/**
 * An option the code never declared but read (`this.allowStale = options.stale`): the claim held
 * while the code read it from its options. Stale when the code did so when the memory was written
 * and, since a commit, no code reads or defines the name in any form (the word may live on in a
 * status string or a comment). Undefined: present, or history cannot tell.
 */
async function noLongerReadOption(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
  name: string,
  codeNow: readonly string[],
  then: readonly string[],
): Promise<ClaimCheck | undefined> {
  if (codeNow.some((file) => readsMember(ctx, file, name))) return undefined;
  const optionRead = optionReadPattern(name);
  const reader: FileReader<boolean> = {
    name: `option-read\u0000${name}`,
    // Read, or destructured (`const { stale, allowStale } = options`, a deprecated alias kept).
    read: (text) => {
      if (text === undefined) return false;
      const code = withoutComments(text);
      return optionRead.test(code) || ownersInCode(code, name).size > 0;
    },
  };
  if (!(await ctx.heldThen(then, claim.memoryValidFrom, reader, (read) => read))) return undefined;
  const commit = await ctx.fileBreak(then, claim.memoryValidFrom, reader, (read) => !read, 'every');
  if (!commit) return undefined;
  return withCommit({ verdict: 'stale', evidence: { reason: 'no longer read from the options' } }, commit);
}

/** `options.name`, `this.opts.name`, `config?.name`: a read of `name` from an options object. */
function optionReadPattern(name: string): RegExp {
  const escaped = name.replace(/[$]/g, '\\$');
  return new RegExp(`(?<![\\w$])${OPTION_RECEIVERS}\\??\\.${escaped}(?![\\w$])`);
}

const OPTION_RECEIVERS = '(?:options|opts|option|config|settings|cfg|conf)';

/** Per check: each file's code read (comments stripped) once, and the owners of each name in it. */
const checkCaches = new WeakMap<VerificationContext, CheckCaches>();

interface CheckCaches {
  code: Map<string, string>;
  owners: Map<string, Set<string>>;
  /** noLongerDefined's answer per name, owner set and memory time: docs repeat their names. */
  removals: Map<string, Promise<ClaimCheck | undefined>>;
}

function cachesOf(ctx: VerificationContext): CheckCaches {
  let caches = checkCaches.get(ctx);
  if (!caches) checkCaches.set(ctx, (caches = { code: new Map(), owners: new Map(), removals: new Map() }));
  return caches;
}

export function noLongerDefinedOnce(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
  name: string,
  ownedBy: ReadonlySet<string> | undefined,
): Promise<ClaimCheck | undefined> {
  const { removals } = cachesOf(ctx);
  const key = `${name}\u0000${[...(ownedBy ?? ['*'])].sort().join(',')}\u0000${claim.memoryValidFrom}`;
  let removal = removals.get(key);
  if (!removal) {
    removal = ctx.words.get(name).then((files) => noLongerDefined(ctx, claim, name, [...files], ownedBy));
    removals.set(key, removal);
  }
  // Each claim gets its own copy: a later step may add to a check's evidence.
  return removal.then((check) => check && { verdict: check.verdict, evidence: { ...check.evidence } });
}

/** memberOwners of `name` in a workspace file now, computed once per check. */
function ownersNow(ctx: VerificationContext, file: string, name: string): Set<string> {
  const caches = cachesOf(ctx);
  const key = `${name}\u0000${file}`;
  let owners = caches.owners.get(key);
  if (!owners) {
    caches.owners.set(key, (owners = ownersInCode(codeOf(ctx, file), name)));
  }
  return owners;
}

/**
 * Whether a code file still reads `.name` (`options.ws`, `this.opts.ws`), not to call or assign it,
 * on a line that does not refuse it (`if (options.flush) throw new Error('flush was removed')` is
 * evidence of removal, not of use).
 */
function readsMember(ctx: VerificationContext, file: string, name: string): boolean {
  const escaped = name.replace(/[$]/g, '\\$');
  const read = new RegExp(`[\\w$\\])]\\??\\.${escaped}(?![\\w$])(?!\\s*(?:=[^=]|\\())`);
  return codeOf(ctx, file)
    .split('\n')
    .some((line) => read.test(line) && !REFUSAL_RE.test(line));
}

const REFUSAL_RE = /\bthrow\b|\b(?:removed|deprecated|no\s+longer|renamed)\b/i;

/** A code file's text now without comments, read once per check. */
function codeOf(ctx: VerificationContext, file: string): string {
  const caches = cachesOf(ctx);
  let code = caches.code.get(file);
  if (code === undefined) caches.code.set(file, (code = withoutComments(sourceText(ctx, file) ?? '')));
  return code;
}

/** A type declaration file of the project's own code (`types/options.d.ts`, not a test's). */
export function isProjectDeclaration(file: string): boolean {
  return DECLARATION_FILE_RE.test(file) && isCodeEvidence(file.replace(DECLARATION_FILE_RE, '.ts'));
}
