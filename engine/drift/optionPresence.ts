import type { ClaimCheck } from './claimTypes';
import { withCommit } from './attribution';
import type { ClaimUnderCheck } from './attribution';
import type { FileReader } from './fileHistory';
import type { VerificationContext } from './verificationContext';
import { withoutComments } from './memberDefinitions';
import { isProjectDeclaration } from './memberRemoval';
import { isCodeEvidence } from './evidenceFiles';
import { sourceText } from './sourceText';

/*
 * Whether an option is still one: its presence is decided by its owner, the options the code
 * takes, never by the word anywhere. lru-cache's `length` option became `sizeCalculation`, and
 * `.length` is read on every array of the code: the word says nothing about the option.
 */

/** Files whose history is read for an option (each a walk of the file's versions). */
const MAX_OPTION_FILES_THEN = 40;

/**
 * An option the memory passes or names (`new LRU({ length: fn })`, "the `length` option") that
 * the code took from its options when the memory was written (read, destructured, or typed in an
 * options interface) and, since a commit, takes nowhere. Undefined: still an option, never one
 * (another kind of name), or history cannot tell; the usual presence check then decides.
 */
export async function noLongerAnOption(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
  name: string,
): Promise<ClaimCheck | undefined> {
  if (!ctx.git) return undefined;
  const reader = optionReader(name);
  const declarations = [...(await ctx.literals.get(name))].filter(isProjectDeclaration);
  const now = [...[...(await ctx.words.get(name))].filter(isCodeEvidence), ...declarations];
  // Generous now: any form that may still take it keeps it an option.
  if (now.some((file) => reader.read(sourceText(ctx, file), file) !== 'none')) return undefined;
  const then = [...(await ctx.wordsAt(await ctx.commitsAt(claim.memoryValidFrom), name))].filter(
    (file) => isCodeEvidence(file) || isProjectDeclaration(file),
  );
  if (then.length === 0 || then.length > MAX_OPTION_FILES_THEN) return undefined;
  const taken = (how: OptionForm) => how === 'options';
  if (!(await ctx.heldThen(then, claim.memoryValidFrom, reader, taken))) return undefined;
  const gone = (how: OptionForm) => how === 'none';
  const commit = await ctx.fileBreak(then, claim.memoryValidFrom, reader, gone, 'every');
  if (!commit) return undefined;
  return withCommit({ verdict: 'stale', evidence: { reason: 'no longer an option the code takes' } }, commit);
}

/**
 * How code takes a name: `options` from its options (decides that it was an option), `maybe` in
 * a form that may still take it (destructured from something else, a quoted key), `none`.
 */
type OptionForm = 'options' | 'maybe' | 'none';

function optionReader(name: string): FileReader<OptionForm> {
  return {
    name: `option-taken\u0000${name}`,
    read: (text) =>
      text !== undefined && text.includes(name) ? optionForm(withoutComments(text), name) : 'none',
  };
}

/**
 * `options.name`, `this.#opts?.name`, `proxyOptions['name']`, `'name' in options`, `const { a,
 * name = 1 } = options`, or a key of a type whose name says it holds options or handlers
 * (`interface LRUOptions { name?: number }`, `interface DispatchHandlers { name?(): void }`):
 * taken from options. Destructured from anything else, or the name quoted alone: maybe.
 */
export function optionForm(code: string, name: string): OptionForm {
  const escaped = name.replace(/[$]/g, '\\$');
  const word = `(?<![\\w$])${escaped}(?![\\w$])`;
  const read = new RegExp(`${RECEIVER}\\??\\.${word}|${RECEIVER}\\s*\\[\\s*['"\`]${escaped}['"\`]\\s*\\]`);
  const inCheck = new RegExp(`['"\`]${escaped}['"\`]\\s+in\\s+${RECEIVER}`);
  if (read.test(code) || inCheck.test(code)) return 'options';
  let maybe = false;
  for (const source of destructuredFrom(code, name)) {
    if (OPTIONS_SOURCE_RE.test(source)) return 'options';
    maybe = true;
  }
  for (const m of code.matchAll(OPTIONS_TYPE_RE)) {
    const body = declarationAt(code, (m.index ?? 0) + m[0].length - 1);
    if (new RegExp(`(?:^|[;,{\\n])\\s*(?:readonly\\s+)?${word}\\s*\\??\\s*[:(]`).test(body)) return 'options';
  }
  if (maybe || new RegExp(`(['"\`])${escaped}\\1`).test(code)) return 'maybe';
  return 'none';
}

/** An options object by its name: `options`, `opts`, `this.#options`, `proxyOptions`, `config`. */
const RECEIVER = '(?<![\\w$])(?:[\\w$#]*(?:[oO]ptions?|[oO]pts|[cC]onfig|[sS]ettings)|cfg|conf)';

/**
 * What each destructuring pattern that takes `name` as a key destructures: `options` in `const {
 * a, name = 1 } = options`, `Readonly<CspOptions>) =>` in `({ name = true }: Readonly<CspOptions>)
 * =>`. A pattern is a `{}` followed by `=`, a type annotation or the end of a parameter list (then
 * `=>` or `{`); an object literal (`Array.from({ length: max })`, also before a ternary's `:`) is none.
 */
function destructuredFrom(code: string, name: string): string[] {
  const sources: string[] = [];
  const key = new RegExp(`(?<![\\w$.])${name.replace(/[$]/g, '\\$')}\\s*(?=[,=:}]|$)`, 'gm');
  for (const m of code.matchAll(key)) {
    const at = m.index ?? 0;
    const before = code.slice(Math.max(0, at - 3000), at).trimEnd();
    if (!/[{,]$/.test(before)) continue;
    const open = enclosingBrace(code, at);
    if (open === undefined) continue;
    const close = open + declarationAt(code, open).length;
    const after = /^\s*(?:=(?![=>])\s*|:\s*|\)\s*(?==>|\{))([^;\n]{0,80})/.exec(
      code.slice(close, close + 90),
    );
    if (after) sources.push((after[1] ?? '').trim());
  }
  return sources;
}

/** The `{` that opens the innermost block around `at`, looking back at most 3000 characters. */
function enclosingBrace(code: string, at: number): number | undefined {
  let depth = 0;
  for (let i = at - 1; i >= Math.max(0, at - 3000); i--) {
    if (code[i] === '}') depth++;
    else if (code[i] === '{' && depth-- === 0) return i;
  }
  return undefined;
}

/** `options`, `this.options`, `opts || {}`, `Readonly<CspOptions>`: what a pattern takes is options. */
const OPTIONS_SOURCE_RE = new RegExp(
  `^(?:this\\.|Readonly<|Partial<|Required<)?${RECEIVER.replace('(?<![\\w$])', '')}(?![\\w$])`,
);

/** `interface LRUOptions<K> extends Base {`, `type ClientOptions = {`: the body opens at the match's end. */
const OPTIONS_TYPE_RE =
  /\b(?:interface|type)\s+[\w$]*(?:Options?|Opts|Config|Settings|Handlers?)[\w$]*\s*(?:<[^{};]*>)?\s*(?:extends\s+[^{;]+)?=?\s*\{/g;

/**
 * The text of the `{` block opened at `open`, nested blocks included, and of what a type alias
 * joins to it (`{ reportOnly?: boolean } & ({ useDefaults?: true } | ...)`).
 */
function declarationAt(code: string, open: number): string {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    const ch = code[i];
    if (ch === '{' || ch === '(') depth++;
    else if ((ch === '}' || ch === ')') && --depth === 0) {
      if (!/^\s*[&|]/.test(code.slice(i + 1, i + 20))) return code.slice(open, i + 1);
    }
  }
  return code.slice(open);
}
