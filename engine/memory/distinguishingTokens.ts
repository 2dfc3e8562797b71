import { extractEntities } from '../extract/entities';
import { isSentenceStart } from '../extract/scanContext';

/**
 * What tells one memory from a near copy of it: the numbers, names, paths, versions, identifiers,
 * URLs, emails and code it mentions. A sentence encoder scores "ticket 101" and "ticket 102" as
 * the same sentence; these tokens are how the write path knows they are two facts, not one fact
 * said twice. Pure, no I/O.
 */
export interface DistinguishingTokens {
  /** Lower-cased numbers, entity keys (files, symbols, tools, names, dates, URLs), acronyms, emails. */
  readonly tokens: ReadonlySet<string>;
  /**
   * Each number with the word before it ("writer 2", "note 1"), kept only when the text has two
   * or more different numbers: "writer 2 note 1" and "writer 1 note 2" hold the same numbers.
   */
  readonly boundNumbers: ReadonlySet<string>;
  /**
   * Tokens that need only be found somewhere in the other text: capitalised words seen only at
   * a sentence start ("Alice ..." or "Upgrade ...": a name or an ordinary opener, capitalisation
   * cannot tell) and the content of inline code (`pnpm` restates pnpm).
   */
  readonly soft: ReadonlySet<string>;
  /** The lower-cased text, where the other text's soft tokens are looked up. */
  readonly lower: string;
}

const NUMBER_RE = /\d+(?:[.,:]\d+)*/g;
const NUMBER_WORD_RE = /\p{L}+/gu;
const ACRONYM_RE = /(?<![\p{L}\d_])[A-Z][A-Z0-9]+(?![\p{L}\d_])/gu;
const EMAIL_RE = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const INLINE_CODE_RE = /`([^`\n]{1,400})`/g;
const WORD_BEFORE_RE = /([\p{L}_]+)[^\p{L}\d_]*$/u;

/**
 * Number words that count as their digits: "two kids" restates "2 kids". Not "one" (mostly a
 * pronoun: "the one I use") nor "first" (mostly "first, install ..."): leaving them out can only
 * keep two memories apart, never fold two together.
 */
const NUMBER_WORDS: ReadonlyMap<string, string> = new Map(
  (
    'two 2 three 3 four 4 five 5 six 6 seven 7 eight 8 nine 9 ten 10 eleven 11 twelve 12 thirteen 13 ' +
    'fourteen 14 fifteen 15 sixteen 16 seventeen 17 eighteen 18 nineteen 19 twenty 20 thirty 30 ' +
    'forty 40 fifty 50 sixty 60 seventy 70 eighty 80 ninety 90 hundred 100 thousand 1000 ' +
    'million 1000000 billion 1000000000 second 2 third 3 fourth 4 fifth 5 sixth 6 seventh 7 ' +
    'eighth 8 ninth 9 tenth 10 twice 2 dozen 12'
  )
    .split(' ')
    .reduce<Array<[string, string]>>((pairs, word, i, all) => {
      if (i % 2 === 0) pairs.push([word, all[i + 1] as string]);
      return pairs;
    }, []),
);

export function distinguishingTokens(text: string): DistinguishingTokens {
  const tokens = new Set<string>();
  const soft = new Set<string>();
  const numbers: Array<{ value: string; at: number }> = [];
  for (const match of text.matchAll(NUMBER_RE))
    numbers.push({ value: match[0].replace(/,/g, ''), at: match.index });
  for (const match of text.matchAll(NUMBER_WORD_RE)) {
    const value = NUMBER_WORDS.get(match[0].toLowerCase());
    if (value !== undefined) numbers.push({ value, at: match.index });
  }
  for (const { value } of numbers) tokens.add(value);
  for (const entity of extractEntities(text)) {
    const oneWord = !entity.key.includes(' ');
    const named = entity.type === 'name' || entity.type === 'person';
    if (named && oneWord && entity.spans.every(([start]) => isSentenceStart(text, start)))
      soft.add(entity.key);
    else tokens.add(entity.key);
  }
  for (const match of text.matchAll(ACRONYM_RE)) tokens.add(match[0].toLowerCase());
  for (const match of text.matchAll(EMAIL_RE)) tokens.add(match[0].toLowerCase());
  for (const match of text.matchAll(INLINE_CODE_RE)) soft.add((match[1] as string).trim().toLowerCase());
  return { tokens, boundNumbers: bindNumbers(text, numbers), soft, lower: text.toLowerCase() };
}

/**
 * Why two texts are two memories rather than one said twice: the first distinguishing token one
 * has and the other lacks (`"101" vs "102"`), or undefined when nothing tells them apart.
 */
export function distinguishingDifference(a: string, b: string): string | undefined {
  const left = distinguishingTokens(a);
  const right = distinguishingTokens(b);
  const onlyLeft = firstMissing(left, right);
  const onlyRight = firstMissing(right, left);
  if (onlyLeft === undefined && onlyRight === undefined) return undefined;
  return `${quote(onlyLeft)} vs ${quote(onlyRight)}`;
}

function firstMissing(from: DistinguishingTokens, to: DistinguishingTokens): string | undefined {
  // A name that opens one text and stands mid-sentence in the other is the same name.
  for (const token of from.tokens) if (!to.tokens.has(token) && !to.soft.has(token)) return token;
  // Bound numbers matter only when both texts bind theirs (two or more numbers on each side).
  if (to.boundNumbers.size > 0)
    for (const bound of from.boundNumbers) if (!to.boundNumbers.has(bound)) return bound;
  for (const token of from.soft) if (!containsWord(to.lower, token)) return token;
  return undefined;
}

function bindNumbers(text: string, numbers: ReadonlyArray<{ value: string; at: number }>): Set<string> {
  const bound = new Set<string>();
  if (new Set(numbers.map((n) => n.value)).size < 2) return bound;
  for (const { value, at } of numbers) {
    const before = WORD_BEFORE_RE.exec(text.slice(Math.max(0, at - 40), at));
    bound.add(`${before ? (before[1] as string).toLowerCase() : ''} ${value}`);
  }
  return bound;
}

/** Whether `word` occurs in `lower` with no letter or digit right before or after it. */
function containsWord(lower: string, word: string): boolean {
  for (let at = lower.indexOf(word); at >= 0; at = lower.indexOf(word, at + 1)) {
    const before = lower[at - 1];
    const after = lower[at + word.length];
    if (!isWordChar(before) && !isWordChar(after)) return true;
  }
  return false;
}

function isWordChar(c: string | undefined): boolean {
  return c !== undefined && /[\p{L}\d_]/u.test(c);
}

function quote(token: string | undefined): string {
  return token === undefined ? '(none)' : `"${token}"`;
}
