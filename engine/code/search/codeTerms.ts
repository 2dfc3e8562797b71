import { stemmer } from 'stemmer';
import { STOPWORDS } from '../../lexical/stopwords';
import { splitIdentifier } from '../../lexical/tokenizer';

/**
 * The terms of code and of questions about it, for the code channel (codeSearch.ts). Unlike the
 * memory tokenizer, which keeps dotted chains whole (`self.to_netcdf`), every identifier stands on
 * its own: its parts split at `_` and camelCase, stopword-filtered and stemmed (`to_netcdf` ->
 * netcdf; `getUserName` -> get, user, name), and, when it has several parts, its whole form
 * (`tonetcdf`), so a query naming the exact identifier ranks its definition above scattered words.
 */
const IDENTIFIER = /[\p{L}_$][\p{L}\p{N}_$]*|\p{N}+/gu;
const MAX_TERM = 48;
const CACHE_SIZE = 200_000;
const cache = new Map<string, readonly string[]>();

export function codeTerms(text: string): string[] {
  const terms: string[] = [];
  for (const raw of text.match(IDENTIFIER) ?? []) {
    let known = cache.get(raw);
    if (known === undefined) {
      known = termsOf(raw);
      if (cache.size >= CACHE_SIZE) cache.clear();
      cache.set(raw, known);
    }
    for (const term of known) terms.push(term);
  }
  return terms;
}

function termsOf(raw: string): string[] {
  const parts = splitIdentifier(raw);
  const terms: string[] = [];
  for (const part of parts) {
    if (part.length > MAX_TERM || STOPWORDS.has(part) || (part.length === 1 && parts.length > 1)) continue;
    terms.push(/\d/.test(part) || part.length <= 2 ? part : stemmer(part));
  }
  if (parts.length > 1) {
    const whole = parts.join('');
    if (whole.length <= MAX_TERM * 2) terms.push(whole);
  }
  return terms;
}
