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
 * The text with the insides of string literals in example code blanked (same length, so spans
 * keep their places): `log(`${path} has been removed`)` is what the example prints, not a
 * sentence denying the calls around it.
 */
export function withoutExampleStrings(text: string): string {
  if (!text.includes('```') && !text.includes('~~~')) return text;
  let out = text;
  for (const { fence, role } of textRolesOf(text).fences) {
    if (role !== 'example') continue;
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
