import { PROSE_PROGRAMS, matchProseCommandAt } from './commandMatcher';
import { isLikelyEnvName } from './envMatcher';
import { INSTALL_PROGRAMS, matchInstallAt } from './installCommands';
import { createMention } from './mention';
import type { Mention } from './mention';
import { NameRunCollector, emitNames } from './nameRuns';
import { BRAND_NAMES, NAME_CONNECTORS, NOT_IDENTIFIERS } from './nameVocabulary';
import { EXTENSIONLESS_FILES } from './pathVocabulary';
import type { ScanContext } from './scanContext';
import { isCode, isSentenceStart } from './scanContext';
import { TOOL_FILTER, TOOL_PHRASES, TOOL_WORDS } from './toolIndex';
import { WordFilter } from './wordFilter';
import { HAS_DOT, HAS_JOIN, HAS_LOWER, HAS_OTHER, HAS_UNDERSCORE, HAS_UPPER, scanWords } from './wordScanner';

/*
 * One pass over the words of the text decides tools, identifier-shaped symbols and environment
 * variables, gathers runs of capitalised words for names, and tries command patterns where a word
 * names a program (`npm install ...`, `git rebase`). This is the hot loop of extraction: the
 * common case, a lower-case English word, costs a few table lookups and no hashing.
 */
const CAMEL_RE = /^[a-z][a-z0-9]+[A-Z][A-Za-z0-9]*$/;
const PASCAL_RE = /^[A-Z][A-Za-z0-9]*$/;
const INNER_CAPITAL_RE = /[a-z0-9][A-Z]/;
const ACRONYM_LED_RE = /^[A-Z]{2,}[a-z]{2,}/;
const SNAKE_RE = /^[A-Za-z0-9_]+$/;
const UPPER_RE = /^[A-Z0-9_]+$/;
const HAS_LETTER_RE = /[A-Za-z]/;
const NAME_PREFIX_RE = /^(?:Mc|Mac|O['’]|D['’]|De|Di|Da|La|Le|Van|Von)[A-Z][a-z]+(?:['’]s)?$/;
const NAME_WORD_RE = /^\p{Lu}[\p{Ll}\p{M}]+(?:['’]\p{Ll}+|-\p{Lu}[\p{Ll}\p{M}]+)*$/u;
const CAPITALISED_RE = /^\p{Lu}(?:[^\p{Lu}]|$)/u;
const POSSESSIVE_RE = /['’]s$/;
const PLAIN = HAS_UPPER | HAS_UNDERSCORE | HAS_DOT | HAS_JOIN | HAS_OTHER;
const PROGRAM_FILTER = new WordFilter([...PROSE_PROGRAMS, ...INSTALL_PROGRAMS]);
const MAX_CONNECTOR_LENGTH = 5;

type WordKind = 'symbol' | 'env' | 'file' | 'name' | 'lower' | 'other';

export function matchWords(ctx: ScanContext, out: Mention[]): void {
  const { text } = ctx;
  const runs = new NameRunCollector(text);
  let skipUntil = 0;
  let commandsUntil = 0;
  scanWords(text, (start, end, flags) => {
    if (start < skipUntil) return; // the rest of a multi-word tool name
    if ((flags & PLAIN) === 0 && !mayBeSpecial(text, start, end, runs.open)) {
      runs.breakRun(); // a plain lower-case word: most words of most texts, and nothing to extract
      return;
    }
    const word = text.slice(start, end);
    const lower = (flags & (HAS_UPPER | HAS_OTHER)) === 0 ? word : word.toLowerCase();
    // A command's arguments are never read again as the start of another command.
    if (start >= commandsUntil && PROGRAM_FILTER.mayContain(lower)) {
      commandsUntil = Math.max(commandsUntil, matchCommandAt(ctx, lower, start, out));
    }
    const toolEnd = matchTool(ctx, word, lower, flags, start, out);
    if (toolEnd !== undefined) {
      runs.breakRun();
      skipUntil = toolEnd;
      return;
    }
    const kind = classify(word, lower, flags);
    if (kind === 'name' && !isCode(ctx, start) && !touchesCode(text, end)) {
      runs.addWord(start, end, lower);
      return;
    }
    if (kind === 'lower' && word.length <= MAX_CONNECTOR_LENGTH && NAME_CONNECTORS.has(word)) {
      runs.addConnector(start, end);
      return;
    }
    if (kind === 'symbol' || kind === 'env' || kind === 'file') {
      out.push(createMention(start, end, kind, word));
    }
    runs.breakRun();
  });
  runs.breakRun();
  emitNames(text, runs.runs, out);
}

/** `Object.<anonymous>`, `Promise(`, `Foo.bar`: a capitalised word glued to code is no name. */
function touchesCode(text: string, end: number): boolean {
  const next = text[end];
  if (next === '(' || next === '<' || next === '[') return true;
  if (next !== '.') return false;
  const after = text[end + 1];
  return after !== undefined && !/\s/.test(after);
}

/**
 * Whether a lower-case ASCII word needs a closer look: it may name a program or a tool, or join a
 * name ("Bank of America"). Decided on the text itself, without slicing the word out.
 */
function mayBeSpecial(text: string, start: number, end: number, runOpen: boolean): boolean {
  return (
    PROGRAM_FILTER.mayContainRange(text, start, end) ||
    TOOL_FILTER.mayContainRange(text, start, end) ||
    (runOpen && end - start <= MAX_CONNECTOR_LENGTH)
  );
}

/** Install and prose commands starting with this word; returns where the longest ends (0: none). */
function matchCommandAt(ctx: ScanContext, program: string, start: number, out: Mention[]): number {
  let end = 0;
  if (INSTALL_PROGRAMS.has(program)) end = matchInstallAt(ctx, start, out) ?? 0;
  if (PROSE_PROGRAMS.has(program)) end = Math.max(end, matchProseCommandAt(ctx.text, start, out) ?? 0);
  return end;
}

function classify(word: string, lower: string, flags: number): WordKind {
  const first = word.charCodeAt(0);
  if (first >= 97 && first <= 122) {
    if ((flags & PLAIN) === 0) return 'lower';
    if (flags & HAS_UPPER) {
      if (NOT_IDENTIFIERS.has(lower)) return 'other';
      if (BRAND_NAMES.has(lower)) return 'name';
    }
    if (flags & HAS_UNDERSCORE) return classifySnake(word);
    if (flags & HAS_DOT) return 'other';
    if (CAMEL_RE.test(word)) return 'symbol';
    return flags & HAS_UPPER ? 'other' : 'lower';
  }
  if (EXTENSIONLESS_FILES.has(word)) return 'file';
  if (flags & HAS_DOT) return 'other';
  if (flags & HAS_UNDERSCORE) return classifySnake(word);
  if ((flags & (HAS_LOWER | HAS_OTHER)) === 0) return isLikelyEnvName(word) ? 'env' : 'other'; // ALL CAPS
  if (NAME_WORD_RE.test(word)) return 'name';
  if (NOT_IDENTIFIERS.has(lower)) return 'other';
  if (BRAND_NAMES.has(lower.replace(POSSESSIVE_RE, '')) || NAME_PREFIX_RE.test(word)) return 'name';
  if (PASCAL_RE.test(word) && (INNER_CAPITAL_RE.test(word) || ACRONYM_LED_RE.test(word))) return 'symbol';
  return 'other';
}

/** `user_id` and `__init__` are symbols; `DATABASE_URL` an environment variable; `MAX_RETRIES` a symbol. */
function classifySnake(word: string): WordKind {
  if (!SNAKE_RE.test(word) || !HAS_LETTER_RE.test(word)) return 'other';
  if (!UPPER_RE.test(word)) return 'symbol';
  return isLikelyEnvName(trimUnderscores(word)) ? 'env' : 'symbol';
}

function trimUnderscores(word: string): string {
  let start = 0;
  let end = word.length;
  while (start < end && word[start] === '_') start++;
  while (end > start && word[end - 1] === '_') end--;
  return word.slice(start, end);
}

/**
 * Emits a tool mention for the word (or the phrase it starts) and returns where it ends. An
 * ambiguous form counts only in code or capitalised mid-sentence; a possessive `'s` is left out.
 */
function matchTool(
  ctx: ScanContext,
  word: string,
  lower: string,
  flags: number,
  start: number,
  out: Mention[],
): number | undefined {
  const possessive = (flags & HAS_JOIN) !== 0 && POSSESSIVE_RE.test(lower);
  const base = possessive ? lower.slice(0, -2) : lower;
  if (!TOOL_FILTER.mayContain(base)) return undefined;
  if (!possessive) {
    const phrases = TOOL_PHRASES.get(lower);
    if (phrases !== undefined) {
      for (const phrase of phrases) {
        phrase.rest.lastIndex = start + word.length;
        if (phrase.rest.test(ctx.text) && toolAllowed(ctx, word, start, phrase.ambiguous)) {
          const end = phrase.rest.lastIndex;
          out.push(createMention(start, end, 'tool', phrase.name));
          return end;
        }
      }
    }
  }
  const form = TOOL_WORDS.get(base);
  if (form === undefined || !toolAllowed(ctx, word, start, form.ambiguous)) return undefined;
  const end = start + base.length;
  out.push(createMention(start, end, 'tool', form.name));
  return end;
}

function toolAllowed(ctx: ScanContext, word: string, start: number, ambiguous: boolean): boolean {
  return !ambiguous || isCode(ctx, start) || (CAPITALISED_RE.test(word) && !isSentenceStart(ctx.text, start));
}
