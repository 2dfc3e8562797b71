import { createMention } from './mention';
import type { Mention } from './mention';
import { CALENDAR_WORDS, HARD_STOPWORDS, SOFT_STOPWORDS } from './nameVocabulary';
import { lowerCaseOccurrences } from './lowerCaseWords';
import { isLineStart, isSentenceStart } from './scanContext';

/** One capitalised word of a run, or a lower-case connector ("of", "van") between two of them. */
export interface NameWord {
  readonly start: number;
  readonly end: number;
  readonly connector: boolean;
  /** Lower-cased, without a possessive `'s`: what the word lists are checked with. */
  readonly lower: string;
  /** "Don't", "I'll": never a name. */
  readonly contraction: boolean;
  /** The word opens a sentence, where a capital proves nothing. */
  readonly initial: boolean;
}

const MAX_RUN_WORDS = 8;
const MAX_NAME_WORDS = 5;
const CONTRACTION_RE = /['’](?:t|ll|re|ve|d|m)$/i;
const INFLECTED_RE = /^[a-z]{3,}(?:ing|ed)$/;
/**
 * English noun and verb endings that names almost never have: "Session", "Expiration", "Touches",
 * "Caches", "Payments". Only a word standing alone where its capital proves nothing is judged by them.
 */
const ORDINARY_ENDING_RE =
  /^[a-z]{2,}(?:tion|sion|ment|ness|ism|able|ible|ful|less|ous)s?$|^[a-z]{2,}(?:ch|sh|ss|x|z)es$/;
/** An article or determiner right after the word: it is a verb taking an object ("Touches the cookie"). */
const DETERMINER_AFTER_RE = /[ \t]+(?:the|a|an|its|their|these|those|every|each|some|any)(?![\p{L}\d'’-])/uy;
/** A letter that can be a vowel; a word without one is an abbreviation ("Pr", "Db", "Cfg"), never a name. */
const VOWEL_RE = /[aeiouy\u00c0-\uffff]/;
/** Openers after which a capital is as positional as at a sentence start: "(Add retry)", "| Add |". */
const GROUP_OPENERS = new Set(['(', '[', '{', '|']);
const HONORIFIC_BEFORE_RE = /(?:^|[^\p{L}])(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Sir|Dame|Madam)\.?[ \t]+$/u;
const POSSESSIVE_PRONOUNS = new Set(['my', 'our', 'his', 'her', 'their', 'your']);
const RELATION_ADJECTIVES = new Set(['best', 'good', 'old', 'close', 'new', 'dear']);
const RELATIONS = new Set(
  'friend wife husband partner colleague coworker co-worker boss manager teammate sister brother mom mum dad mother father son daughter cousin aunt uncle grandma grandpa grandmother grandfather neighbor neighbour roommate girlfriend boyfriend fiance fiancée kid child mentor therapist'.split(
    ' ',
  ),
);
const WORD_BEFORE_RE = /[\p{L}-]/u;
const SPEECH_AFTER_RE =
  /[ \t]+(?:said|says|told|asked|replied|mentioned|wrote|thinks|thought|suggested|explained|shared)(?!\p{L})/uy;

/**
 * Collects runs of capitalised words separated only by blanks, in text order. The word matcher
 * feeds it; which words of a run make a name is decided later, once the whole text was seen.
 */
export class NameRunCollector {
  readonly runs: NameWord[][] = [];
  private current: NameWord[] = [];
  private pending: NameWord | undefined;
  private closed = false;

  constructor(private readonly text: string) {}

  /** `lower` is the lower-cased word, possessive included. */
  addWord(start: number, end: number, lower: string): void {
    const last = this.pending ?? this.current[this.current.length - 1];
    if (
      last !== undefined &&
      !this.closed &&
      this.current.length < MAX_RUN_WORDS &&
      this.blanksOnly(last.end, start)
    ) {
      if (this.pending !== undefined) this.current.push(this.pending);
    } else {
      this.breakRun();
    }
    this.pending = undefined;
    // A possessive ends a name: "Caroline's Mom" is not one.
    this.closed = endsPossessive(this.text, end);
    const apostrophe = lower.includes("'") || lower.includes('’');
    this.current.push({
      start,
      end,
      connector: false,
      lower: this.closed ? lower.slice(0, -2) : lower,
      contraction: apostrophe && CONTRACTION_RE.test(lower),
      initial: isSentenceStart(this.text, start) || opensGroup(this.text, start),
    });
  }

  /** Whether a run is under way, so that a connector word could join it. */
  get open(): boolean {
    return this.current.length > 0;
  }

  addConnector(start: number, end: number): void {
    const last = this.current[this.current.length - 1];
    if (
      last === undefined ||
      this.closed ||
      this.pending !== undefined ||
      !this.blanksOnly(last.end, start)
    ) {
      this.breakRun();
      return;
    }
    this.pending = { start, end, connector: true, lower: '', contraction: false, initial: false };
  }

  breakRun(): void {
    if (this.current.length > 0) this.runs.push(this.current);
    this.current = [];
    this.pending = undefined;
    this.closed = false;
  }

  private blanksOnly(from: number, to: number): boolean {
    if (to <= from || to - from > 2) return false;
    for (let i = from; i < to; i++) {
      const c = this.text[i];
      if (c !== ' ' && c !== '\t') return false;
    }
    return true;
  }
}

/**
 * Turns runs into name mentions. A word is dropped when it is never a name (pronouns, months,
 * greetings, contractions, words without a vowel) or, where the position explains the capital (a
 * sentence or line start, after an opening bracket or a table bar), when nothing else shows a
 * name: a common opener, a word the text also writes in lower case, or, standing alone, a word
 * with a noun or verb ending (-ing, -ed, -tion, -ches...) or followed by an article.
 */
export function emitNames(text: string, runs: readonly NameWord[][], out: Mention[]): void {
  const lowerCase = lowerCaseOccurrences(text, sentenceInitialCandidates(runs));
  for (const run of runs) {
    let segment: NameWord[] = [];
    for (let i = 0; i < run.length; i++) {
      const word = run[i] as NameWord;
      if (word.connector) {
        if (segment.length > 0) segment.push(word);
        continue;
      }
      const { lower } = word;
      let drop =
        word.contraction || HARD_STOPWORDS.has(lower) || CALENDAR_WORDS.has(lower) || !VOWEL_RE.test(lower);
      if (!drop && segment.length === 0 && word.initial) {
        const alone = i === run.length - 1;
        drop =
          SOFT_STOPWORDS.has(lower) ||
          (alone &&
            (INFLECTED_RE.test(lower) || ORDINARY_ENDING_RE.test(lower) || takesObject(text, word.end))) ||
          lowerCase.has(lower);
      }
      if (drop) {
        emitSegment(text, segment, out);
        segment = [];
      } else {
        segment.push(word);
      }
    }
    emitSegment(text, segment, out);
  }
}

/** Sentence-initial words that only a lower-case use elsewhere in the text can rule out. */
function sentenceInitialCandidates(runs: readonly NameWord[][]): Set<string> {
  const candidates = new Set<string>();
  for (const run of runs) {
    for (const { initial, contraction, lower } of run) {
      if (!initial || contraction) continue;
      if (HARD_STOPWORDS.has(lower) || CALENDAR_WORDS.has(lower) || SOFT_STOPWORDS.has(lower)) continue;
      candidates.add(lower);
    }
  }
  return candidates;
}

function emitSegment(text: string, segment: NameWord[], out: Mention[]): void {
  while (segment.length > 0 && (segment[segment.length - 1] as NameWord).connector) segment.pop();
  const first = segment[0];
  const last = segment[segment.length - 1];
  if (first === undefined || last === undefined) return;
  if (segment.filter((w) => !w.connector).length > MAX_NAME_WORDS) return; // a Title Case heading
  const surface = text.slice(first.start, last.end);
  const name = segment.length === 1 ? surface : surface.replace(/[ \t]+/g, ' ');
  const possessive = endsPossessive(text, last.end);
  const key = (possessive ? name.slice(0, -2) : name).toLowerCase();
  const type = hasPersonCue(text, first.start, last.end) ? 'person' : 'name';
  out.push(createMention(first.start, last.end, type, name, key, !possessive));
}

/** Context that makes a capitalised name a person: "Dr. Kim", "my friend Jo", "Caroline:", "Sam said". */
function hasPersonCue(text: string, start: number, end: number): boolean {
  if (text[end] === ':' && isLineStart(text, start)) return true;
  // Every cue before the name ends in a blank: "Dr. ", "my friend ".
  const before = text[start - 1];
  if (before === ' ' || before === '\t') {
    if (HONORIFIC_BEFORE_RE.test(text.slice(Math.max(0, start - 8), start))) return true;
    const [nearest, second, third] = wordsBefore(text, start);
    if (nearest !== undefined && RELATIONS.has(nearest) && second !== undefined) {
      if (POSSESSIVE_PRONOUNS.has(second)) return true;
      if (RELATION_ADJECTIVES.has(second) && third !== undefined && POSSESSIVE_PRONOUNS.has(third))
        return true;
    }
  }
  SPEECH_AFTER_RE.lastIndex = end;
  return SPEECH_AFTER_RE.test(text);
}

/** Whether a determiner follows the word ending at `end`. */
function takesObject(text: string, end: number): boolean {
  DETERMINER_AFTER_RE.lastIndex = end;
  return DETERMINER_AFTER_RE.test(text);
}

/** Whether only blanks separate `pos` from an opening bracket or a table bar before it. */
function opensGroup(text: string, pos: number): boolean {
  let i = pos - 1;
  while (i >= 0 && (text[i] === ' ' || text[i] === '\t')) i--;
  return i >= 0 && GROUP_OPENERS.has(text[i] as string);
}

/** Whether the word ending at `end` ends in `'s` or `’s`. */
function endsPossessive(text: string, end: number): boolean {
  const quote = text[end - 2];
  return text[end - 1] === 's' && (quote === "'" || quote === '’');
}

/** Up to three lower-cased words right before `pos`, nearest first, separated by blanks only. */
function wordsBefore(text: string, pos: number): string[] {
  const words: string[] = [];
  let i = pos;
  while (words.length < 3) {
    let end = i;
    while (end > 0 && (text[end - 1] === ' ' || text[end - 1] === '\t')) end--;
    if (end === i) break;
    let start = end;
    while (start > 0 && end - start < 24 && WORD_BEFORE_RE.test(text[start - 1] as string)) start--;
    if (start === end) break;
    words.push(text.slice(start, end).toLowerCase());
    i = start;
  }
  return words;
}
