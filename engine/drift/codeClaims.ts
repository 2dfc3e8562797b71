import type { ClaimCheck } from './claimTypes';
import { goneWord, ok, presentAgain } from './attribution';
import type { ClaimUnderCheck } from './attribution';
import { verifyDependencyClaim } from './manifestClaims';
import { codeFilesHolding } from './evidenceFiles';
import type { VerificationContext } from './verificationContext';

/**
 * An environment variable the code is said to read: its name must still occur in the code, or the
 * dependency that reads it for the project must still be declared.
 */
export async function verifyEnvClaim(ctx: VerificationContext, claim: ClaimUnderCheck): Promise<ClaimCheck> {
  const foundIn = [...(await ctx.words.get(claim.subject))];
  if (claim.negated)
    return foundIn.length > 0 ? presentAgain(ctx, claim, claim.subject, foundIn) : ok('absent');
  if (foundIn.length > 0) return ok('read by the code');
  const reader = ENV_READ_BY_PACKAGE.get(claim.subject);
  if (reader) return readThroughPackage(ctx, claim, reader);
  return goneWord(ctx, claim, claim.subject, 'no longer in the code');
}

/**
 * Variables a dependency reads on the project's behalf: `DEBUG=koa*` switches on the `debug`
 * package's output, so it holds while the project depends on `debug` (one of npm's most used
 * packages, and the convention's owner), and goes with the commit that dropped it.
 */
const ENV_READ_BY_PACKAGE = new Map([['DEBUG', 'debug']]);

async function readThroughPackage(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
  dependency: string,
): Promise<ClaimCheck> {
  const check = await verifyDependencyClaim(ctx, { ...claim, kind: 'dependency', subject: dependency });
  if (check.verdict === 'ok') return ok(`read by the ${dependency} package the project depends on`);
  if (check.verdict !== 'stale') return check;
  const { repair: _repair, ...evidence } = check.evidence;
  return { ...check, evidence: { ...evidence, reason: `read by ${dependency}, no longer a dependency` } };
}

/**
 * `engram drift --fix`: the program is still a bin of the project, and each sub-command and flag is
 * named in its code: as a one-word string (`'drift'`, `'--fix'`, `'fix'`), as the first word of a
 * command string (`"migration:generate <path>"`) or as the option's key (`fix`, `dryRun` for
 * `--dry-run`). Short flags (`-c`) say too little to check.
 */
export async function verifyCommandClaim(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
): Promise<ClaimCheck> {
  const [program, ...rest] = claim.subject.split(/\s+/);
  if (!program || !ctx.manifests.programs.has(program))
    return {
      verdict: 'stale',
      evidence: { reason: `${program ?? 'the program'} is no longer a program of the project` },
    };
  const words = ownArguments(rest)
    .filter((word) => !/^-[^-]/.test(word) && !PREFIX_FLAG_RE.test(word))
    .map((word) => word.split('=')[0] as string);
  if (words.length === 0) return ok('program present');
  const found = await Promise.all(words.map((word) => wordIn(ctx, word)));
  if (claim.negated) {
    const present = words.find((_, i) => (found[i] as string[]).length > 0);
    return present === undefined ? ok('absent') : presentAgain(ctx, claim, keyOf(present), found.flat());
  }
  const missing = words.find((_, i) => (found[i] as string[]).length === 0);
  if (missing === undefined) return ok('sub-commands and flags present');
  return goneWord(ctx, claim, keyOf(missing), `${missing} not found in the code`);
}

/** A pipe, a redirection or a command list: what follows is another program's or the shell's. */
const SHELL_OPERATOR_RE = /^(?:\|\|?|&&?|;|\d?>>?(?:&\d)?|<)/;
/** `--v8-` in "prepend `--v8-` to any V8 flag" is a prefix, not a flag; `-` alone is standard input. */
const PREFIX_FLAG_RE = /^(?:-|--[\w-]*-)$/;

/** The program's own arguments: `mocha --reporter=doc | cat head.html -` stops at the pipe. */
function ownArguments(words: readonly string[]): string[] {
  const end = words.findIndex((word) => SHELL_OPERATOR_RE.test(word));
  return words.slice(0, end === -1 ? words.length : end);
}

/** The files whose code names a sub-command or flag, as a one-word string or as its key. */
async function wordIn(ctx: VerificationContext, word: string): Promise<string[]> {
  const bare = word.replace(/^-+/, '');
  const quoted = [...new Set([word, bare])].flatMap((w) => [`'${w}'`, `"${w}"`, `\`${w}\``]);
  const key = keyOf(word);
  // A command string with its arguments (yargs' `command = "migration:generate <path>"`, commander's
  // `.command('serve [port]')`).
  const declared = /^[\w:.-]+$/.test(bare) ? [`'${bare} `, `"${bare} `, `\`${bare} `] : [];
  const [literals, keys, commandFiles] = await Promise.all([
    Promise.all(quoted.map((q) => ctx.codeLiterals.get(q))),
    /^[A-Za-z_$][\w$]*$/.test(key) ? ctx.words.get(key) : Promise.resolve(new Set<string>()),
    codeFilesHolding(ctx, declared),
  ]);
  return [...new Set([...literals.flatMap((files) => [...files]), ...keys, ...commandFiles])];
}

/** `--dry-run` -> `dryRun`, `--fix` -> `fix`, `build` -> `build`: the name an option table keys it by. */
function keyOf(word: string): string {
  return word.replace(/^-+/, '').replace(/-(\w)/g, (_m, c: string) => c.toUpperCase());
}
