/**
 * ASCII character tables for the backward and forward walks that matchers do around an anchor
 * (a `/`, a `(`, a `.`): cheaper than running a regex from every word start.
 */
function table(chars: string): Uint8Array {
  const t = new Uint8Array(128);
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    if (/[A-Za-z0-9_]/.test(ch) || chars.includes(ch)) t[c] = 1;
  }
  return t;
}

const PATH = table('@.~/\\+-');
const IDENTIFIER = table('$');

/** `[\w@.~/\\+-]`: characters of a path token. */
export function isPathChar(code: number): boolean {
  return code < 128 && PATH[code] === 1;
}

/** `[\w$]`: characters of an identifier. */
export function isIdentifierChar(code: number): boolean {
  return code < 128 && IDENTIFIER[code] === 1;
}
