import { DEFAULT_LIMITS } from '../memory/limits';
import { tokenize } from '../lexical/tokenizer';
import { standsAsWord } from './nameEvidence';

/**
 * The text of a consolidated memory (issue 21, section 3.3): the members' sentences that carry
 * something a question could ask for, quoted verbatim in the members' order; greetings, fillers
 * and reactions ("Wow, that's cool!") are left out. No fixed size: a cluster full of facts keeps
 * them all. What the dropped sentences said stays in the superseded members (history, and
 * recall's drill-down, engine/retrieval/drillDown.ts).
 *
 * A sentence is kept when it names one of the cluster's entities, or when its rarest words are
 * rare in the memories being consolidated: the mean inverse document frequency of its
 * `RARE_WORDS` rarest terms reaches `MIN_RARITY` of the highest possible (a word found in one
 * memory). Names, places, numbers and the things people did are rare; "good", "love", "thanks"
 * are not. Chosen on the development half of the LoCoMo questions (docs/benchmarks.md).
 */
export const GIST_RULE = { rareWords: 4, minRarity: 0.67, memberChars: 500 };

/**
 * A gist is a memory: it must fit the store's content limit, or the whole consolidation run fails
 * (a faded session of 50 long assistant turns quoted 261,400 characters on LongMemEval). A safety
 * cap, not a summary length: members past it are not quoted (their text stays in history).
 */
export const GIST_MAX_CHARS = DEFAULT_LIMITS.maxContentChars;

/** A leading speaker or source label ("Caroline (1:56 pm on 8 May, 2023): ...", "user: ..."). */
const LABEL = /^([^\n!?]{1,80}?):\s+/;
/** The label's parenthetical (a time, a place), written once while it repeats. */
const LABEL_PARTS = /^(.*?) \((.+)\)$/;

export interface GistSource {
  id: string;
  content: string;
}

export interface Gist {
  text: string;
  /** The members at least one sentence of which the text quotes, in order. */
  quoted: string[];
}

/** Document frequencies of terms over a set of memories: the rarity scale of `writeGist`. */
export interface TermRarity {
  documents: number;
  frequency: ReadonlyMap<string, number>;
}

export function termRarity(contents: readonly string[]): TermRarity {
  const frequency = new Map<string, number>();
  for (const content of contents)
    for (const term of new Set(tokenize(bodyOf(content).body)))
      frequency.set(term, (frequency.get(term) ?? 0) + 1);
  return { documents: contents.length, frequency };
}

export function writeGist(
  members: readonly GistSource[],
  rarity: TermRarity,
  entities: readonly string[] = [],
): Gist {
  const parts: string[] = [];
  const quoted: string[] = [];
  let lastLabel = '';
  let lastParenthetical = '';
  for (const member of members) {
    const { label, body } = bodyOf(member.content);
    const kept = quotedSpan(body, rarity, entities);
    if (kept.length === 0) continue;
    const length = parts.reduce((sum, part) => sum + part.length + 1, 0);
    const adds = kept.reduce((sum, sentence) => sum + sentence.length + 1, label.length + 2);
    if (quoted.length > 0 && length + adds > GIST_MAX_CHARS) break;
    quoted.push(member.id);
    if (label !== '' && label !== lastLabel) {
      const split = LABEL_PARTS.exec(label);
      const short = split && split[2] === lastParenthetical ? split[1]! : label;
      if (split) lastParenthetical = split[2]!;
      parts.push(`${short}:`);
    }
    lastLabel = label;
    parts.push(...kept);
  }
  // A cluster with nothing informative still needs a text: its first sentence stands for it.
  if (quoted.length === 0 && members.length > 0) {
    const first = members[0]!;
    const text = sentencesOf(first.content)[0] ?? first.content;
    return { text: text.slice(0, GIST_MAX_CHARS), quoted: [first.id] };
  }
  return { text: parts.join(' ').slice(0, GIST_MAX_CHARS), quoted };
}

/**
 * The sentences of one member the gist quotes: its informative ones, in order, within
 * `GIST_RULE.memberChars`. A turn that long is quoted by its most telling sentences (those naming a
 * cluster entity, then the rarest), and a single sentence past the span is cut at a word; the
 * rest stays in the member (history, drill-down).
 */
function quotedSpan(body: string, rarity: TermRarity, entities: readonly string[]): string[] {
  const floor = GIST_RULE.rareWords * GIST_RULE.minRarity * Math.log(rarity.documents);
  const kept = sentencesOf(body)
    .map((sentence, at) => ({
      sentence,
      at,
      names: namesEntity(sentence, entities),
      rare: rarity.documents < 2 ? Infinity : rareness(sentence, rarity),
    }))
    .filter((s) => s.names || s.rare >= floor);
  const span = GIST_RULE.memberChars;
  if (kept.reduce((sum, s) => sum + s.sentence.length + 1, 0) <= span) return kept.map((s) => s.sentence);
  const chosen: typeof kept = [];
  let length = 0;
  for (const s of [...kept].sort(
    (a, b) => Number(b.names) - Number(a.names) || b.rare - a.rare || a.at - b.at,
  )) {
    if (length + s.sentence.length + 1 > span) continue;
    chosen.push(s);
    length += s.sentence.length + 1;
  }
  if (chosen.length === 0) {
    const first = kept[0]!.sentence;
    const cut = first.slice(0, span - 1);
    return [`${cut.slice(0, Math.max(cut.lastIndexOf(' '), span / 2))}…`];
  }
  return chosen.sort((a, b) => a.at - b.at).map((s) => s.sentence);
}

function bodyOf(content: string): { label: string; body: string } {
  const match = LABEL.exec(content);
  return match ? { label: match[1]!, body: content.slice(match[0].length) } : { label: '', body: content };
}

function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\s*\n\s*/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export function namesEntity(sentence: string, entities: readonly string[]): boolean {
  const lower = sentence.toLowerCase();
  return entities.some((e) => e.length > 1 && namedIn(lower, e.toLowerCase()));
}

/** Whether `name` stands in `text` as a whole word: "Max" names Max, not "maximum". */
function namedIn(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1))
    if (standsAsWord(text, at, name.length)) return true;
  return false;
}

function rareness(sentence: string, { documents, frequency }: TermRarity): number {
  const idfs = [...new Set(tokenize(sentence))]
    .map((term) => Math.log(documents / Math.max(1, frequency.get(term) ?? 1)))
    .sort((a, b) => b - a)
    .slice(0, GIST_RULE.rareWords);
  return idfs.reduce((s, v) => s + v, 0);
}
