import { WordFilter } from './wordFilter';
import { HAS_DOT, HAS_OTHER, HAS_UNDERSCORE, HAS_UPPER, scanWords } from './wordScanner';

/** Below this many characters searched in all (text length x questions), search directly. */
const DIRECT_BUDGET = 32_000;
const WORD_CHAR_RE = /[\p{L}\p{N}_'’-]/u;

/**
 * Which of `candidates` (lower-case words) the text also writes in lower case. A capitalised word
 * at the start of a sentence that the text elsewhere writes in lower case ("Fixed ... we fixed")
 * is an ordinary word, not a name. A short text is searched once per candidate; a long one is
 * scanned once, slicing out only the words that pass a filter built from the candidates.
 */
export function lowerCaseOccurrences(text: string, candidates: ReadonlySet<string>): ReadonlySet<string> {
  const found = new Set<string>();
  if (candidates.size === 0) return found;
  if (text.length * candidates.size <= DIRECT_BUDGET) {
    for (const word of candidates) if (occursAsWord(text, word)) found.add(word);
    return found;
  }
  const filter = new WordFilter(candidates);
  scanWords(text, (start, end, flags) => {
    if ((flags & (HAS_UPPER | HAS_DOT | HAS_UNDERSCORE)) !== 0) return;
    if (!filter.mayContainRange(text, start, end)) return;
    const word = text.slice(start, end);
    if (candidates.has(word) && ((flags & HAS_OTHER) === 0 || word === word.toLowerCase())) found.add(word);
  });
  return found;
}

function occursAsWord(text: string, word: string): boolean {
  for (let i = text.indexOf(word); i !== -1; i = text.indexOf(word, i + 1)) {
    const before = text[i - 1];
    const after = text[i + word.length];
    if (
      (before === undefined || !WORD_CHAR_RE.test(before)) &&
      (after === undefined || !WORD_CHAR_RE.test(after))
    ) {
      return true;
    }
  }
  return false;
}
