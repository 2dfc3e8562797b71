import type { ClaimCheck } from './claimTypes';
import { ok, unverifiable, withCommit } from './attribution';
import type { ClaimUnderCheck } from './attribution';
import { isCodeEvidence } from './evidenceFiles';
import type { FileReader } from './fileHistory';
import type { VerificationContext } from './verificationContext';
import { sourceText } from './sourceText';
import { sameDuration, statedDuration } from './durations';

/** A string, number, boolean or null written out: the only defaults a memory is compared with. */
const LITERAL_RE =
  /^(?:'[^'\n]*'|"[^"\n]*"|`[^`$\n]*`|-?\d[\d_]*(?:\.\d+)?(?:e[+-]?\d+)?|true|false|null|undefined)$/i;
/** A literal after `||` or `??`: only a written value is a default, never another expression. */
const FALLBACK_LITERAL = String.raw`'[^'\n]*'|"[^"\n]*"|-?\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null`;
/** `const defaultOptions = {`, `DEFAULTS: Object.freeze({`: an object of defaults opens here. */
const DEFAULTS_OBJECT_RE = /\b\w*default\w*\s*[=:]\s*(?:Object\.freeze\(\s*)?\{/gi;

/**
 * An option's default as the memory states it. Only a default the code declares in its structure
 * decides: a key of a defaults object (`defaultOptions = { messageKey: 'msg' }`), a parameter or
 * destructuring default (`function f(dest = 1)`, `{ level = 'info' } = opts`), or a literal
 * fallback for a missing option (`options.subdomainOffset || 2`). Found there, the
 * stated value must be the one (one site, another value: stale, repaired with it); found nowhere
 * or with several values, the claim cannot be checked: a word search would only guess.
 */
export async function verifyDefaultClaim(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
): Promise<ClaimCheck> {
  const name = claim.subject.slice(claim.subject.lastIndexOf('.') + 1);
  const stated = claim.value;
  if (stated === undefined || claim.negated) return unverifiable('a default without a value');
  const sites: Array<{ file: string; value: string }> = [];
  for (const file of [...(await ctx.words.get(name))].filter(isCodeEvidence).sort()) {
    const text = sourceText(ctx, file);
    if (text === undefined) continue;
    for (const value of declaredDefaults(text, name)) sites.push({ file, value });
  }
  if (sites.some((site) => sameValue(site.value, stated))) return ok('the code declares this default');
  const [site] = sites;
  // One site, a plain literal: anything else (an expression, a constant, several sites) is a guess.
  if (!site || sites.length > 1) {
    return unverifiable(
      site ? 'the code declares several defaults of that name' : 'no declared default found',
    );
  }
  if (!LITERAL_RE.test(site.value)) return unverifiable(`the code's default is an expression: ${site.value}`);
  const reader: FileReader<string[]> = {
    name: `default\u0000${name}`,
    read: (text) => (text === undefined ? [] : declaredDefaults(text, name)),
  };
  const commit = await ctx.fileBreak(
    [site.file],
    claim.memoryValidFrom,
    reader,
    (found) => !found.some((value) => sameValue(value, stated)),
    'every',
  );
  const check: ClaimCheck = {
    verdict: 'stale',
    evidence: { reason: 'default changed', foundIn: [site.file], now: unquote(site.value) },
  };
  // A duration's repair would guess the code's unit: the finding asks for review instead.
  if (claim.valueSpan && statedDuration(stated) === undefined) {
    const quoted = claim.valueSpan[1] - claim.valueSpan[0] === stated.length + 2;
    const now = unquote(site.value);
    check.evidence.repair = { span: claim.valueSpan, text: quoted ? `'${now}'` : now };
  }
  return withCommit(check, commit);
}

/** The defaults a source file declares for `name`, as written. */
export function declaredDefaults(source: string, name: string): string[] {
  const escaped = name.replace(/[$]/g, '\\$');
  const values: string[] = [];
  // Parameter and destructuring defaults: `(dest = 1,`, `{ level = 'info' }`; a statement ends in `;`.
  const parameter = new RegExp(`[({,]\\s*${escaped}\\s*=(?!=)\\s*([^,;()\\n{}]+?)\\s*(?=[,)}])`, 'g');
  for (let m = parameter.exec(source); m !== null; m = parameter.exec(source))
    values.push((m[1] as string).trim());
  // A fallback for a missing option: `options.subdomainOffset || 2`, `opts.level ?? 'info'`.
  const fallback = new RegExp(
    `[\\w$\\]]\\.${escaped}\\s*(?:\\|\\||\\?\\?)\\s*(${FALLBACK_LITERAL})(?![\\w.$])`,
    'g',
  );
  for (let m = fallback.exec(source); m !== null; m = fallback.exec(source)) values.push(m[1] as string);
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
