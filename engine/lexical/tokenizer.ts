import { stemmer } from 'stemmer';
import { STOPWORDS } from './stopwords';

/**
 * Code-aware tokenization shared by indexing and querying, so both sides agree exactly.
 *
 * A raw token is a run of letters, digits and the joiners `_ . / - : @ $ #` (so identifiers, dotted
 * names, paths and package names stay whole). Each raw token yields:
 * - its parts, split at joiners and at camelCase/PascalCase/acronym/digit boundaries, each
 *   lower-cased, stopword-filtered and Porter-stemmed (`getUserName` -> get, user, name), so
 *   `user name` finds `getUserName`;
 * - when it has more than one part, its whole form with the joiners removed (`getusername`,
 *   `srcauthlogints`), so an exact identifier or path ranks above scattered parts.
 * Index terms hold only lower-case letters and digits, so SQLite's FTS4 simple tokenizer keeps
 * them intact (it splits at ASCII punctuation and keeps every code point >= 128).
 */
const RAW_TOKEN = /[\p{L}\p{N}_$#@.:/\\-]+/gu;
const JOINERS = /[_$#@.:/\\-]+/;
const CASE_BOUNDARY = /(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])/;
const MAX_TERM = 48;

export interface TokenizeOptions {
  /** Keep stopwords (for whole identifiers they are always kept). @default false */
  keepStopwords?: boolean;
}

/** Splits an identifier-like token into its lower-case parts (no stemming, no filtering). */
export function splitIdentifier(raw: string): string[] {
  return raw
    .split(JOINERS)
    .flatMap((piece) => piece.split(CASE_BOUNDARY))
    .map((part) => fold(part))
    .filter((part) => part.length > 0);
}

/** Index/query terms of a text, in order, with repeats (term frequency matters to BM25). */
export function tokenize(text: string, options: TokenizeOptions = {}): string[] {
  const terms: string[] = [];
  const keepStopwords = options.keepStopwords === true;
  // match() with the global flag returns the matched strings only: no match object per token.
  for (const raw of text.match(RAW_TOKEN) ?? []) {
    if (keepStopwords) {
      pushTermsOf(raw, true, terms);
      continue;
    }
    // Writing a memory tokenizes it, and words repeat across memories: each raw token's terms are
    // worked out once (splitting, folding and stemming were an eighth of a batched write).
    let known = termsCache.get(raw);
    if (known === undefined) {
      known = [];
      pushTermsOf(raw, false, known);
      if (termsCache.size >= TERMS_CACHE_SIZE) termsCache.clear();
      termsCache.set(raw, known);
    }
    for (const term of known) terms.push(term);
  }
  return terms;
}

const TERMS_CACHE_SIZE = 100_000;
const termsCache = new Map<string, string[]>();

function pushTermsOf(token: string, keepStopwords: boolean, terms: string[]): void {
  const raw = token.replace(/^[_.:/\\-]+|[_.:/\\-]+$/g, '');
  if (raw === '') return;
  const parts = splitIdentifier(raw);
  for (const part of parts) {
    if (!keepStopwords && STOPWORDS.has(part)) continue;
    if (part.length > MAX_TERM) continue;
    terms.push(stem(part));
  }
  if (parts.length > 1) {
    const whole = parts.join('');
    if (whole.length <= MAX_TERM * 2) terms.push(whole);
  }
}

/** Distinct query terms, in first-seen order. */
export function queryTerms(text: string): string[] {
  return [...new Set(tokenize(text))];
}

const stemCache = new Map<string, string>();

function stem(word: string): string {
  if (/\d/.test(word) || word.length <= 2) return word;
  let stemmed = stemCache.get(word);
  if (stemmed === undefined) {
    stemmed = stemmer(word);
    if (stemCache.size > 50_000) stemCache.clear();
    stemCache.set(word, stemmed);
  }
  return stemmed;
}

/** Lower-cases and strips accents, keeping only letters and digits. */
function fold(part: string): string {
  return part
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}
