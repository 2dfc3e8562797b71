import { TOOL_DICTIONARY } from './toolDictionary';
import { WordFilter } from './wordFilter';

export interface ToolForm {
  /** Display name of the tool. */
  readonly name: string;
  /** Matched only in code or capitalised mid-sentence: the form is also an everyday word. */
  readonly ambiguous: boolean;
}

export interface PhraseForm extends ToolForm {
  /** Sticky, case-insensitive matcher for the words after the first, from the first word's end. */
  readonly rest: RegExp;
}

/** Single-word forms (which may contain `.` or `-`: "node.js", "lint-staged"), by lower-case form. */
export const TOOL_WORDS: ReadonlyMap<string, ToolForm> = new Map();
/** Multi-word forms by their lower-case first word, longest first. */
export const TOOL_PHRASES: ReadonlyMap<string, readonly PhraseForm[]> = new Map();

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function buildIndex(): void {
  const words = TOOL_WORDS as Map<string, ToolForm>;
  const phrases = TOOL_PHRASES as Map<string, PhraseForm[]>;
  for (const [name, ...declared] of TOOL_DICTIONARY) {
    const forms = declared.length > 0 ? declared : [name.toLowerCase()];
    for (const raw of forms) {
      const ambiguous = raw.startsWith('~');
      const form = ambiguous ? raw.slice(1) : raw;
      const [first, ...rest] = form.split(' ');
      if (first === undefined) continue;
      if (rest.length === 0) {
        words.set(form, { name, ambiguous });
        continue;
      }
      const pattern = rest.map((w) => `[ \\t]+${escapeRegExp(w)}`).join('');
      const list = phrases.get(first) ?? [];
      list.push({ name, ambiguous, rest: new RegExp(`${pattern}(?![\\w-])`, 'iy') });
      list.sort((a, b) => b.rest.source.length - a.rest.source.length);
      phrases.set(first, list);
    }
  }
}

buildIndex();

/** Lets most words skip both lookups above. */
export const TOOL_FILTER = new WordFilter([...TOOL_WORDS.keys(), ...TOOL_PHRASES.keys()]);
