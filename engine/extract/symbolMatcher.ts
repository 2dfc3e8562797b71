import { isIdentifierChar } from './charClasses';
import { createMention } from './mention';
import type { Mention } from './mention';
import type { ScanContext } from './scanContext';
import { createUrlMention } from './urlMatcher';

/*
 * Both patterns are found from their anchors (a separator, an opening parenthesis) rather than
 * tried at every word: the walk back to the start of the identifier run happens once per run.
 */
/** `Class.method`, `Foo::bar`, `$this->save`, `String#split`: at most 17 parts of 128 chars. */
const CHAIN_RE = /(?<![\w$.@#/\\:-])[A-Za-z_$][\w$]{0,127}(?:(?:\.|::|->|#)[A-Za-z_$][\w$]{0,127}){1,16}/y;
const CHAIN_ANCHOR_RE = /[\w$](?:\.|::|->|#)[A-Za-z_$]/g;
/** Characters before an identifier that make it part of something else (a path, a chain, a flag). */
const NOT_BEFORE_CALL = new Set([...'.@#/\\:-']);
const MAX_IDENTIFIER = 128;
const SEPARATOR_RE = /\.|::|->|#/;
const IDENTIFIER_RE = /^[A-Za-z_$][\w$]*$/;
const DOMAIN_RE = /^[a-z][a-z0-9]*(?:\.[a-z][a-z0-9]*)+$/;
const TOP_LEVEL_DOMAINS = new Set('com org net io dev ai co edu gov uk de sh'.split(' '));
/** Keywords and literals that look like calls or identifiers but name nothing. */
const NOT_SYMBOLS = new Set(
  'if for while switch catch return function typeof sizeof await new elif with assert and or not in is true false null undefined none nil this self super'.split(
    ' ',
  ),
);

export function matchSymbols(ctx: ScanContext, out: Mention[]): void {
  const { text } = ctx;
  matchChains(text, out);
  for (let paren = text.indexOf('('); paren !== -1; paren = text.indexOf('(', paren + 1)) {
    addCall(text, paren, out);
  }
  for (const [start, end] of ctx.inlineCode) {
    const content = text.slice(start, end);
    if (IDENTIFIER_RE.test(content) && !NOT_SYMBOLS.has(content.toLowerCase())) {
      out.push(createMention(start, end, 'symbol', content));
    }
  }
}

function matchChains(text: string, out: Mention[]): void {
  CHAIN_ANCHOR_RE.lastIndex = 0;
  for (let a = CHAIN_ANCHOR_RE.exec(text); a !== null; a = CHAIN_ANCHOR_RE.exec(text)) {
    let start = a.index;
    while (start > 0 && isChainChar(text, start - 1)) start--;
    let end = a.index + 1;
    while (end < text.length && isChainChar(text, end)) end++;
    CHAIN_ANCHOR_RE.lastIndex = end;
    CHAIN_RE.lastIndex = start;
    const m = CHAIN_RE.exec(text);
    if (m !== null) addChain(text, start, m[0], out);
  }
}

/** `[\w$.:#]`, or the `-` and `>` of an arrow. */
function isChainChar(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  if (isIdentifierChar(code) || code === 46 || code === 58 || code === 35) return true;
  if (code === 45) return text[i + 1] === '>';
  return code === 62 && text[i - 1] === '-';
}

function addChain(text: string, start: number, chain: string, out: Mention[]): void {
  const parts = chain.split(SEPARATOR_RE);
  if (parts.every((p) => p.length <= 1)) return; // e.g., i.e, U.S
  const end = start + chain.length;
  const called = text[end] === '(';
  const last = parts[parts.length - 1] as string;
  if (!called && DOMAIN_RE.test(chain) && TOP_LEVEL_DOMAINS.has(last)) {
    // `github.com/x/y` is a Go module or a path for other matchers to name, not a site.
    if (text[end] !== '/') out.push(createUrlMention(start, chain));
    return;
  }
  out.push(symbolMention(text, start, end, chain));
}

/** A single identifier right before `(`: `fooBar()`, `print(x)`. Chains are matchChains'. */
function addCall(text: string, paren: number, out: Mention[]): void {
  let start = paren;
  while (start > 0 && paren - start < MAX_IDENTIFIER && isIdentifierChar(text.charCodeAt(start - 1))) start--;
  if (start === paren || (start > 0 && NOT_BEFORE_CALL.has(text[start - 1] as string))) return;
  if (start > 0 && isIdentifierChar(text.charCodeAt(start - 1))) return; // longer than MAX_IDENTIFIER
  const name = text.slice(start, paren);
  if (!/^[A-Za-z_$]/.test(name) || name.length < 2 || NOT_SYMBOLS.has(name.toLowerCase())) return;
  // "file(s)", "match(es)": a plural marker, not a call.
  if (/^\((?:s|es|ies)\)/.test(text.slice(paren, paren + 5))) return;
  out.push(symbolMention(text, start, paren, name));
}

/** The mention keeps literal empty parentheses (`getUserName()`); name and key never do. */
function symbolMention(text: string, start: number, end: number, name: string): Mention {
  const withParens = text[end] === '(' && text[end + 1] === ')';
  return createMention(start, withParens ? end + 2 : end, 'symbol', name);
}
