/**
 * A hand-written scanner for the words of a text: a word starts with a letter or `_` that does not
 * follow a letter, digit, `_`, `$`, `.`, `@`, `/`, `\` or `-`, and goes on over letters, marks,
 * digits and `_`, across `'`, `’` or `-` joins ("Caroline's", "lint-staged") and `.` joins
 * followed by a letter or digit ("node.js"). Equivalent to a Unicode regex with a look-behind, but
 * about twice as fast on English text, with no match arrays to allocate; it also reports which
 * kinds of characters each word holds, so that most words are classified without a regex.
 * Linear: each character is looked at once or twice.
 */

export const HAS_UPPER = 1;
export const HAS_LOWER = 2;
export const HAS_DIGIT = 4;
export const HAS_UNDERSCORE = 8;
export const HAS_DOT = 16;
export const HAS_JOIN = 32;
/** Any character outside ASCII. */
export const HAS_OTHER = 64;

const LETTER_RE = /\p{L}/u;
const MARK_RE = /\p{M}/u;
const NUMBER_RE = /\p{N}/u;
const LETTER = 2;
const MARK = 4;
const NUMBER = 8;
/**
 * Unicode classes of BMP characters beyond ASCII, filled on first sight (bit 1 = known), so a
 * text in another script pays for a regex test once per distinct character, not per character.
 */
const BMP_CLASSES = new Uint8Array(0x10000);
/** The same for astral characters, which are few in any one text. */
const ASTRAL_CLASSES = new Map<number, number>();
const MAX_ASTRAL_CACHED = 4096;

/** LETTER | MARK | NUMBER bits of the code point at `i`. */
function unicodeClass(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 0xd800 || c > 0xdfff) {
    let known = BMP_CLASSES[c] as number;
    if (known === 0) {
      known = 1 | classBits(String.fromCharCode(c));
      BMP_CLASSES[c] = known;
    }
    return known;
  }
  // A surrogate pair (an astral character); a low surrogate is classified with its high one.
  const at = c >= 0xdc00 && i > 0 ? i - 1 : i;
  const point = text.codePointAt(at) ?? 0;
  let known = ASTRAL_CLASSES.get(point);
  if (known === undefined) {
    known = 1 | classBits(String.fromCodePoint(point));
    if (ASTRAL_CLASSES.size >= MAX_ASTRAL_CACHED) ASTRAL_CLASSES.clear();
    ASTRAL_CLASSES.set(point, known);
  }
  return known;
}

function classBits(ch: string): number {
  return (
    (LETTER_RE.test(ch) ? LETTER : 0) | (MARK_RE.test(ch) ? MARK : 0) | (NUMBER_RE.test(ch) ? NUMBER : 0)
  );
}

// Per ASCII code: flag bits for word characters, 0 otherwise.
const ASCII_FLAGS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if (c >= 65 && c <= 90) ASCII_FLAGS[c] = HAS_UPPER;
  else if (c >= 97 && c <= 122) ASCII_FLAGS[c] = HAS_LOWER;
  else if (c >= 48 && c <= 57) ASCII_FLAGS[c] = HAS_DIGIT;
  else if (c === 95) ASCII_FLAGS[c] = HAS_UNDERSCORE;
}
/** ASCII characters after which no word starts: `$HOME`, `.env`, `@scope`, `a/b`, `--flag`. */
const BLOCKS_NEXT = new Set([36, 46, 64, 47, 92, 45]);

export type WordVisitor = (start: number, end: number, flags: number) => void;

export function scanWords(text: string, visit: WordVisitor): void {
  const n = text.length;
  let i = 0;
  let previous = 0; // the code unit before i (0 at the start: nothing blocks)
  while (i < n) {
    const c = text.charCodeAt(i);
    // The ASCII cases are written out: this loop sees every character of every text.
    if (c < 128) {
      const f = ASCII_FLAGS[c] as number;
      if ((f & (HAS_UPPER | HAS_LOWER)) === 0 && c !== 95) {
        previous = c;
        i++;
        continue;
      }
    } else if (!isWordStart(text, i)) {
      previous = c;
      i += charWidth(text, i);
      continue;
    }
    if (
      i > 0 &&
      (previous < 128 ? ASCII_FLAGS[previous] !== 0 || BLOCKS_NEXT.has(previous) : blocksNext(text, i - 1))
    ) {
      previous = c;
      i += charWidth(text, i);
      continue;
    }
    const end = wordEnd(text, i);
    visit(i, end.index, end.flags);
    previous = text.charCodeAt(end.index - 1);
    i = end.index;
  }
}

const result = { index: 0, flags: 0 };

/** Where the word starting at `start` ends, and what it holds. Reuses one result object. */
function wordEnd(text: string, start: number): { index: number; flags: number } {
  const n = text.length;
  let flags = 0;
  let j = start;
  for (;;) {
    while (j < n) {
      const c = text.charCodeAt(j);
      if (c < 128) {
        const f = ASCII_FLAGS[c] as number;
        if (f === 0) break;
        flags |= f;
        j++;
      } else if (isWordChar(text, j)) {
        flags |= HAS_OTHER;
        j += charWidth(text, j);
      } else {
        break;
      }
    }
    if (j + 1 >= n) break;
    const c = text.charCodeAt(j);
    if ((c === 39 || c === 0x2019 || c === 45) && isWordChar(text, j + 1)) {
      flags |= HAS_JOIN;
      j++;
    } else if (c === 46 && isLetterOrNumber(text, j + 1)) {
      flags |= HAS_DOT;
      j++;
    } else {
      break;
    }
  }
  result.index = j;
  result.flags = flags;
  return result;
}

function charWidth(text: string, i: number): number {
  const c = text.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? 2 : 1;
}

function isWordStart(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return c === 95 || ((ASCII_FLAGS[c] as number) & (HAS_UPPER | HAS_LOWER)) !== 0;
  return (unicodeClass(text, i) & LETTER) !== 0;
}

function isWordChar(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return ASCII_FLAGS[c] !== 0;
  return (unicodeClass(text, i) & (LETTER | MARK | NUMBER)) !== 0;
}

function isLetterOrNumber(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return ((ASCII_FLAGS[c] as number) & (HAS_UPPER | HAS_LOWER | HAS_DIGIT)) !== 0;
  return (unicodeClass(text, i) & (LETTER | NUMBER)) !== 0;
}

/** Whether the character at `i` (the one before a candidate start) forbids a word there. */
function blocksNext(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return ASCII_FLAGS[c] !== 0 || BLOCKS_NEXT.has(c);
  return (unicodeClass(text, i) & (LETTER | MARK | NUMBER)) !== 0;
}
