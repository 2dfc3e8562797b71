import { OBSERVATION_RULE } from './observationRequest';

/**
 * Whether a model's answer about a session can be kept, observation by observation: the JSON
 * asked for, within the limits, and grounded in what the session said (a model may write what
 * sounds right and was never there). Pure: the session's text and files are given.
 */

export const OBSERVATION_KINDS = ['learned', 'decision', 'fix'] as const;
export type ObservationKind = (typeof OBSERVATION_KINDS)[number];

export interface Observation {
  kind: ObservationKind;
  title: string;
  text: string;
  files: string[];
}

export interface JudgedAnswer {
  kept: Observation[];
  /** Why each observation that was not kept was refused (one line each). */
  refused: string[];
  /** Why nothing at all could be taken from the answer (the rule-based observations stand). */
  failure?: string;
}

/**
 * Of an observation's distinct content words (four letters or more, not in STOP), the share
 * that must occur in the session's text; and at least this many of them.
 */
const GROUNDED_SHARE = 0.6;
const GROUNDED_WORDS = 2;

const STOP = new Set(
  (
    'this that with from have been were when what which while then than them they their there these ' +
    'those into onto also only just more most some such other over under after before because about ' +
    'should would could must will shall does done made make uses used using user users instead ' +
    'session agent teammate next time learned decision decided fixed fails failed failing works worked'
  ).split(' '),
);

export function judgeAnswer(
  answer: string,
  sessionText: string,
  sessionFiles: readonly string[],
): JudgedAnswer {
  const text = answer.trim();
  if (text === '') return { kept: [], refused: [], failure: 'the model wrote no text' };
  if (text.length > OBSERVATION_RULE.maxChars)
    return {
      kept: [],
      refused: [],
      failure: `the model's answer has ${text.length} characters, over the limit of ${OBSERVATION_RULE.maxChars}`,
    };
  const items = observationItems(text);
  if (items === undefined)
    return {
      kept: [],
      refused: [],
      failure: 'the answer is not the JSON asked for ({"observations": [...]})',
    };
  if (items.length === 0) return { kept: [], refused: [], failure: 'the model found nothing worth keeping' };
  const words = wordSet(sessionText);
  const kept: Observation[] = [];
  const refused: string[] = [];
  for (const [i, item] of items.entries()) {
    if (i >= OBSERVATION_RULE.maxObservations) {
      refused.push(`observation ${i + 1}: past the ${OBSERVATION_RULE.maxObservations} asked for`);
      continue;
    }
    const verdict = judgeItem(item, words, sessionText, sessionFiles);
    if (typeof verdict === 'string') refused.push(`observation ${i + 1}: ${verdict}`);
    else kept.push(verdict);
  }
  if (kept.length === 0)
    return {
      kept,
      refused,
      failure: `none of the model's ${plural(items.length)} could be kept (${refused[0]})`,
    };
  return { kept, refused };
}

/** The observations of an answer (bare JSON, or in a code fence), or undefined if it is not that. */
function observationItems(text: string): unknown[] | undefined {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text)?.[1] ?? text;
  const start = fenced.search(/[[{]/);
  if (start === -1) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(fenced.slice(start).trim());
  } catch {
    return undefined;
  }
  if (Array.isArray(value)) return value as unknown[];
  const list = (value as { observations?: unknown } | null)?.observations;
  return Array.isArray(list) ? (list as unknown[]) : undefined;
}

function judgeItem(
  item: unknown,
  words: ReadonlySet<string>,
  sessionText: string,
  sessionFiles: readonly string[],
): Observation | string {
  const o = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
  const kind = o['kind'];
  if (typeof kind !== 'string' || !(OBSERVATION_KINDS as readonly string[]).includes(kind))
    return `kind is not one of ${OBSERVATION_KINDS.join(', ')}`;
  const title = typeof o['title'] === 'string' ? o['title'].trim() : '';
  const text = typeof o['text'] === 'string' ? o['text'].trim() : '';
  if (text === '') return 'no text';
  if (text.length > OBSERVATION_RULE.observationChars || title.length > OBSERVATION_RULE.titleChars)
    return `over the limit (${OBSERVATION_RULE.titleChars} for a title, ${OBSERVATION_RULE.observationChars} for a text)`;
  const files = Array.isArray(o['files']) ? o['files'].filter((f): f is string => typeof f === 'string') : [];
  const stranger = files.find((f) => !sessionHasFile(f, sessionText, sessionFiles));
  if (stranger !== undefined) return `names a file the session never mentioned (${stranger.slice(0, 80)})`;
  const own = contentWords(`${title} ${text}`);
  const found = own.filter((w) => words.has(w)).length;
  if (found < GROUNDED_WORDS || found < own.length * GROUNDED_SHARE)
    return `not grounded in the session (${found} of its ${own.length} words are in the transcript)`;
  return { kind: kind as ObservationKind, title, text, files };
}

/** A file the session touched (by its path or a tail of it) or named in its text. */
function sessionHasFile(file: string, sessionText: string, sessionFiles: readonly string[]): boolean {
  const name = file.trim().replace(/^\.\//, '');
  if (name === '') return false;
  return sessionFiles.some((f) => f === name || f.endsWith(`/${name}`)) || sessionText.includes(name);
}

function contentWords(text: string): string[] {
  return [
    ...new Set(
      tokens(text)
        .filter((w) => w.length >= 4 && !STOP.has(w))
        .map(stem),
    ),
  ];
}

function wordSet(text: string): Set<string> {
  return new Set(tokens(text).map(stem));
}

/** A word without a plural or tense ending, so "years" is grounded by "year" and "fixed" by "fix". */
function stem(word: string): string {
  const bare = word.endsWith('ies')
    ? `${word.slice(0, -3)}y`
    : word.replace(/(?<!s)s$/, '').replace(/(?:ed|ing)$/, '');
  return bare.length >= 3 ? bare : word;
}

/** Lower-case words, and the parts of a dotted or slashed name (`src/dates.ts` -> src, dates, ts). */
function tokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
}

function plural(n: number): string {
  return n === 1 ? '1 observation' : `${n} observations`;
}
