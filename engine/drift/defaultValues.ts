import type { ClaimCheck } from './claimTypes';
import { ok, unverifiable, withCommit } from './attribution';
import type { ClaimUnderCheck } from './attribution';
import { isCodeEvidence } from './evidenceFiles';
import type { FileReader } from './fileHistory';
import type { VerificationContext } from './verificationContext';
import { sourceText } from './sourceText';
import { oncePerCheck } from './checkMemo';
import { sameDuration, statedDuration } from './durations';
import { passedOnDefaults, resolveDefault } from './defaultExpressions';
import type { ResolvedDefault } from './defaultExpressions';

/** Files that named the option when the memory was written, read for what they declared then. */
const MAX_FILES_THEN = 8;

/** A string, number, boolean or null written out: the only defaults a memory is compared with. */
const LITERAL_RE =
  /^(?:'[^'\n]*'|"[^"\n]*"|`[^`$\n]*`|-?\d[\d_]*(?:\.\d+)?(?:e[+-]?\d+)?|true|false|null|undefined)$/i;
/** A literal after `||` or `??`: only a written value is a default, never another expression. */
const FALLBACK_LITERAL = String.raw`'[^'\n]*'|"[^"\n]*"|-?\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null`;
/** A boolean the code computes from other state: `this.method !== 'HEAD'`, `!opts.stream`. */
const COMPARISON_RE = /^(?:!\s*[\w$.]+|[^=<>!]+?\s*(?:===?|!==?|<=?|>=?)\s*[^=<>]+)$/;
/** `const defaultOptions = {`, `DEFAULTS: Object.freeze({`: an object of defaults opens here. */
const DEFAULTS_OBJECT_RE = /\b\w*default\w*\s*[=:]\s*(?:Object\.freeze\(\s*)?\{/gi;

/**
 * An option's default as the memory states it. Only a default the code declares in its structure
 * decides: a key of a defaults object (`defaultOptions = { messageKey: 'msg' }`), a parameter or
 * destructuring default (`function f(dest = 1)`, `{ level = 'info' } = opts`), or a literal
 * fallback for a missing option (`options.subdomainOffset || 2`), read through a same-file
 * constant, arithmetic or a function the option is passed to (defaultExpressions.ts). The claim
 * is about the declarations that stated its value when it was written: where those now declare
 * one other value, or are gone, it is stale; found nowhere then, or with several values now, it
 * cannot be checked: a word search would only guess.
 */
export async function verifyDefaultClaim(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
): Promise<ClaimCheck> {
  const name = claim.subject.slice(claim.subject.lastIndexOf('.') + 1);
  const stated = claim.value;
  if (stated === undefined || claim.negated) return unverifiable('a default without a value');
  const matches = (value: string) => sameValue(value, stated);
  const sites: Site[] = [];
  for (const file of [...(await ctx.words.get(name))].filter(isCodeEvidence).sort())
    for (const found of defaultsNow(ctx, file, name)) sites.push({ file, ...found });
  if (sites.some((site) => matches(site.value))) return ok('the code declares this default');
  const reader: FileReader<string[]> = {
    name: `resolved default\u0000${name}`,
    read: (text) => (text === undefined ? [] : resolvedDefaults(text, name).map((found) => found.value)),
  };
  const heldIn = await filesDeclaringThen(ctx, claim, name, sites, reader, matches);
  if (heldIn === undefined) return withoutHistory(sites, claim);
  // Declared nowhere when it was written (placeholder, another library's option, a mistake): no
  // drift, unless the code has since taken the default over with another value.
  if (heldIn.length === 0) {
    const adopted = await adoptedSince(ctx, claim, sites, reader, matches);
    return adopted ?? unverifiable('the code did not declare this default when the memory was written');
  }
  const commit = await ctx.fileBreak(
    heldIn,
    claim.memoryValidFrom,
    reader,
    (found) => !found.some(matches),
    'every',
  );
  // Where those files are now: renames since followed, as fileBreak followed them (undefined: deleted).
  const names = await Promise.all(heldIn.map((file) => ctx.nameNow(file)));
  const there = sites.filter((site) => names.includes(site.file));
  const values = [...new Set(there.map((site) => site.value))];
  if (values.length === 1) {
    const site = there[0] as Site;
    // An expression left (`init.signal`, `defaultMaxRedirections` of a parameter) may well be the
    // value; a comparison (`this.method !== 'HEAD'`) makes a stated `true` or `false` hold only sometimes.
    if (!LITERAL_RE.test(site.value) && !(COMPARISON_RE.test(site.value) && /^(?:true|false)$/.test(stated)))
      return unverifiable(`the code's default is an expression: ${site.value}`);
    return withCommit(changedTo(site, claim), commit);
  }
  if (
    values.length === 0 &&
    names.every((file) => file === undefined || sourceText(ctx, file) === undefined)
  ) {
    // Where the default was declared is gone (expectCt's module): it is the default of nothing now.
    const gone: ClaimCheck = {
      verdict: 'stale',
      evidence: { reason: 'its declaration is gone', foundIn: heldIn },
    };
    return withCommit(gone, commit);
  }
  return unverifiable(
    there.length > 0 ? 'the code declares several defaults of that name' : 'no declared default found',
  );
}

interface Site extends ResolvedDefault {
  file: string;
}

/** The defaults a workspace file declares for `name` now (none when it is gone or too large). */
function defaultsNow(ctx: VerificationContext, file: string, name: string): ResolvedDefault[] {
  return oncePerCheck(ctx, `defaults\u0000${name}\u0000${file}`, () => {
    const text = sourceText(ctx, file);
    return text === undefined ? [] : resolvedDefaults(text, name);
  });
}

/**
 * The code files that declared the stated default when the memory was written: where it stands
 * now and where the name stood then. The claim is about those declarations, not about another
 * option of the same name (`maxAge` of two middlewares). Undefined when history cannot tell.
 */
async function filesDeclaringThen(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
  name: string,
  sites: readonly Site[],
  reader: FileReader<string[]>,
  matches: (value: string) => boolean,
): Promise<string[] | undefined> {
  if (!ctx.git) return undefined;
  const asOf = await ctx.commitsAt(claim.memoryValidFrom);
  if (asOf.length === 0) return undefined;
  const then = [...(await ctx.wordsAt(asOf, name))].filter(isCodeEvidence).sort().slice(0, MAX_FILES_THEN);
  const files = [...new Set([...sites.map((site) => site.file), ...then])];
  const held = await Promise.all(
    files.map((file) => ctx.heldThen([file], claim.memoryValidFrom, reader, (found) => found.some(matches))),
  );
  if (held.some((h) => h === undefined)) return undefined;
  return files.filter((_, i) => held[i] === true);
}

/**
 * A default the project left to the platform or a dependency when the memory was written (execa
 * passing `serialization` to `child_process`, whose default is `'json'`) and declares itself now:
 * stale when exactly one place in the code declares it, as a plain literal of another value, in a
 * file that declared no default of that name then. Several places, an expression or a file that
 * already declared one (the memory never held there) leave it unverifiable.
 */
async function adoptedSince(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
  sites: readonly Site[],
  reader: FileReader<string[]>,
  matches: (value: string) => boolean,
): Promise<ClaimCheck | undefined> {
  const [site] = sites;
  if (!site || sites.length > 1 || site.derived || !LITERAL_RE.test(site.value) || matches(site.value))
    return undefined;
  const declaredThen = await ctx.heldThen(
    [site.file],
    claim.memoryValidFrom,
    reader,
    (found) => found.length > 0,
  );
  if (declaredThen !== false) return undefined;
  const commit = await ctx.fileBreak(
    [site.file],
    claim.memoryValidFrom,
    reader,
    (found) => found.some((value) => !matches(value)),
    'every',
  );
  return withCommit(changedTo(site, claim), commit);
}

/** Without history: one site, a plain literal as written, decides; anything else is a guess. */
function withoutHistory(sites: readonly Site[], claim: ClaimUnderCheck): ClaimCheck {
  const [site] = sites;
  if (!site || sites.length > 1) {
    return unverifiable(
      site ? 'the code declares several defaults of that name' : 'no declared default found',
    );
  }
  if (site.derived || !LITERAL_RE.test(site.value)) {
    return unverifiable(`the code's default is an expression: ${site.value}`);
  }
  return changedTo(site, claim);
}

/** Stale: the code declares `site`'s value now; repaired with it only when written as a literal. */
function changedTo(site: Site, claim: ClaimUnderCheck): ClaimCheck {
  const now = unquote(site.value);
  const check: ClaimCheck = {
    verdict: 'stale',
    evidence: { reason: 'default changed', foundIn: [site.file], now },
  };
  const stated = claim.value ?? '';
  // A duration's repair would guess the code's unit, a constant's how to write it: review instead.
  if (
    claim.valueSpan &&
    !site.derived &&
    LITERAL_RE.test(site.value) &&
    statedDuration(stated) === undefined
  ) {
    const quoted = claim.valueSpan[1] - claim.valueSpan[0] === stated.length + 2;
    check.evidence.repair = { span: claim.valueSpan, text: quoted ? `'${now}'` : now };
  }
  return check;
}

/** The defaults a source file declares for `name`, each as a value (see resolveDefault). */
function resolvedDefaults(source: string, name: string): ResolvedDefault[] {
  return [...declaredDefaults(source, name), ...passedOnDefaults(source, name)].map((written) =>
    resolveDefault(source, written),
  );
}

/** The defaults a source file declares for `name`, as written. */
export function declaredDefaults(source: string, name: string): string[] {
  const escaped = name.replace(/[$]/g, '\\$');
  const values: string[] = [];
  // Parameter and destructuring defaults, typed or not: `(dest = 1,`, `(value: number = 0)`,
  // `{ level = 'info' }`; a statement ends in `;`.
  const parameter = new RegExp(
    `[({,]\\s*${escaped}\\s*\\??\\s*(?::\\s*[^=,;()\\n{}]+?)?=(?!=)\\s*([^,;()\\n{}]+?)\\s*(?=[,)}])`,
    'g',
  );
  for (let m = parameter.exec(source); m !== null; m = parameter.exec(source))
    values.push((m[1] as string).trim());
  // A fallback for a missing option: `options.subdomainOffset || 2`, `opts.level ?? 'info'`.
  const fallback = new RegExp(
    `[\\w$\\]]\\.${escaped}\\s*(?:\\|\\||\\?\\?)\\s*(${FALLBACK_LITERAL})(?![\\w.$])`,
    'g',
  );
  for (let m = fallback.exec(source); m !== null; m = fallback.exec(source)) values.push(m[1] as string);
  // A fallback computed from other state: `blocking ?? this.method !== 'HEAD'`.
  const computed = new RegExp(
    String.raw`(?<![\w$.])(?:[\w$]+\.)?${escaped}\s*\?\?\s*([^,;\n(){}?]+?)\s*(?=[,;\n)}]|$)`,
    'g',
  );
  for (let m = computed.exec(source); m !== null; m = computed.exec(source)) {
    const value = (m[1] as string).trim();
    if (COMPARISON_RE.test(value)) values.push(value);
  }
  // The same, written as a test for a missing value: `bodyTimeout != null ? bodyTimeout : 300e3`,
  // `opts.threshold == null ? 2e3 : opts.threshold`.
  const subject = `((?:[\\w$]+\\.)?${escaped})`;
  const missing = String.raw`\s*(?:==|===)\s*(?:null|undefined)\s*\?\s*`;
  const present = String.raw`\s*(?:!=|!==)\s*(?:null|undefined)\s*\?\s*`;
  const ternaries = [
    new RegExp(`(?<![\\w$.])${subject}${present}\\1\\s*:\\s*(${FALLBACK_LITERAL})(?![\\w.$])`, 'g'),
    new RegExp(`(?<![\\w$.])${subject}${missing}(${FALLBACK_LITERAL})\\s*:\\s*\\1(?![\\w$])`, 'g'),
  ];
  for (const ternary of ternaries)
    for (let m = ternary.exec(source); m !== null; m = ternary.exec(source)) values.push(m[2] as string);
  DEFAULTS_OBJECT_RE.lastIndex = 0;
  for (let m = DEFAULTS_OBJECT_RE.exec(source); m !== null; m = DEFAULTS_OBJECT_RE.exec(source)) {
    const body = topLevelOf(source, m.index + m[0].length);
    const key = new RegExp(`(?:^|[,\\n{])\\s*['"]?${escaped}['"]?\\s*:\\s*([^,\\n]+?)\\s*(?=,|\\n|$)`, 'g');
    for (let k = key.exec(body); k !== null; k = key.exec(body)) values.push((k[1] as string).trim());
  }
  return values;
}

/** The text of an object literal from just after its `{`, with nested objects and arrays blanked. */
function topLevelOf(source: string, start: number): string {
  let depth = 0;
  let out = '';
  for (let i = start; i < source.length; i++) {
    const c = source[i] as string;
    if (c === '{' || c === '[' || c === '(') depth++;
    else if (c === '}' || c === ']' || c === ')') {
      if (depth === 0) break;
      depth--;
      continue;
    }
    if (depth === 0) out += c;
  }
  return out;
}

function unquote(value: string): string {
  return value.trim().replace(/^(['"`])(.*)\1$/, '$2');
}

/** The code's default (as written) and the memory's (unquoted): `'msg'` and `msg`, `1_000`, `1e3` and `1000`. */
function sameValue(written: string, stated: string): boolean {
  const value = unquote(written);
  if (value === stated) return true;
  const number = (text: string) =>
    /^-?\d[\d_]*(?:\.\d+)?(?:e[+-]?\d+)?$/i.test(text) ? Number(text.replace(/_/g, '')) : NaN;
  if (Number.isNaN(number(value))) return false;
  const duration = statedDuration(stated);
  return duration ? sameDuration(number(value), duration) : number(value) === number(stated);
}
