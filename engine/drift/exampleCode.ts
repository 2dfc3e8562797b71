import type { ExtractedClaim } from './claimTypes';
import { textRolesOf } from './textRoles';

type Partial = Omit<ExtractedClaim, 'negated'>;

/*
 * What the code of a usage example does not say about the project: the words of its strings and
 * the reader's own variables passed to the project's calls.
 */

/** A string literal of code: quoted, on one line (a template literal may span lines). */
const STRING_LITERAL_RE = /'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g;

/**
 * The text with the insides of string literals in example code and shell commands blanked (same
 * length, so spans keep their places): `log(`${path} has been removed`)` is what the example
 * prints, and `npm deprecate pkg@1 "1.x is no longer supported"` the message it sets, not
 * sentences denying the calls around them.
 */
export function withoutExampleStrings(text: string): string {
  if (!text.includes('```') && !text.includes('~~~')) return text;
  let out = text;
  for (const { fence, role } of textRolesOf(text).fences) {
    if (role !== 'example' && role !== 'shell') continue;
    const code = text
      .slice(fence.start, fence.end)
      .replace(STRING_LITERAL_RE, (literal) =>
        literal.length <= 2
          ? literal
          : `${literal[0]}${' '.repeat(literal.length - 2)}${literal[literal.length - 1]}`,
      );
    out = out.slice(0, fence.start) + code + out.slice(fence.end);
  }
  return out;
}

/** A template literal with at least one `${...}`: text the example builds, around code. */
const BUILT_TEMPLATE_RE = /`(?:[^`\\$]|\\.|\$(?!\{))*\$\{(?:[^`\\]|\\.)*`/g;

/**
 * Whether `at` lies in the text of a template literal an example builds (`return \`export
 * default Comp => { Comp.i18n = ${code} }\``): what it writes out, not a use of the API. The
 * code inside `${...}` (`${ctx.method}`) is code; a template without any is left alone (a comment's
 * backticks look like one).
 */
export function inBuiltTemplateText(text: string, at: number): boolean {
  if (!text.includes('${')) return false;
  for (const { fence, role } of textRolesOf(text).fences) {
    if (role !== 'example' || at < fence.start || at >= fence.end) continue;
    for (const m of text.slice(fence.start, fence.end).matchAll(BUILT_TEMPLATE_RE)) {
      const start = fence.start + m.index;
      if (at <= start || at >= start + m[0].length) continue;
      return !insideInterpolation(m[0], at - start);
    }
  }
  return false;
}

/** Whether offset `at` of a template literal's source is inside one of its `${...}`. */
function insideInterpolation(template: string, at: number): boolean {
  let depth = 0;
  for (let i = 0; i < at; i++) {
    if (template[i] === '\\') i++;
    else if (depth === 0 && template[i] === '$' && template[i + 1] === '{') {
      depth = 1;
      i++;
    } else if (depth > 0 && template[i] === '{') depth++;
    else if (depth > 0 && template[i] === '}') depth--;
  }
  return depth > 0;
}

/**
 * `thelib('node', [scriptPath, ...args], options)`: a bare name passed to a call is the reader's
 * variable (or the parameter name of the doc's own signature), not an API the project must keep.
 * A key (`{preferLocal: true}`), a member (`a.b`) or a call (`makeSink()`) inside is still a claim.
 */
export function isArgumentValue(text: string, claim: Partial): boolean {
  if (claim.kind !== 'symbol' || claim.subject.includes('.')) return false;
  if (text.slice(claim.span[0], claim.span[1]).includes('(')) return false;
  const after = text.slice(claim.span[1], claim.span[1] + 40).match(/^\s*(\S)/)?.[1];
  if (after !== ',' && after !== ')' && after !== ']') return false;
  const lineStart = text.lastIndexOf('\n', claim.span[0] - 1) + 1;
  const before = text.slice(lineStart, claim.span[0]);
  if (!/[([,]\s*(?:\.\.\.)?\s*$/.test(before)) return false;
  // Inside the argument list of a call on this line: an unclosed `(` right after a name.
  let depth = 0;
  for (let i = before.length - 1; i >= 0; i--) {
    const c = before[i];
    if (c === ')') depth++;
    else if (c === '(') {
      if (depth === 0) return /[\w$]\s*$/.test(before.slice(0, i));
      depth--;
    }
  }
  return false;
}
