import { EngramError } from '../errors';
import { matchCommands } from './commandMatcher';
import { matchDates } from './dateMatcher';
import type { ExtractedEntity } from './entityTypes';
import { isIdReference } from './idReferences';
import { matchEnvVars } from './envMatcher';
import type { Mention } from './mention';
import { mergeMentions } from './mergeMentions';
import { matchPackageReferences } from './packageReferences';
import { matchPaths } from './pathMatcher';
import { resolveMentions } from './resolveMentions';
import type { ScanContext } from './scanContext';
import { createScanContext } from './scanContext';
import { matchSymbols } from './symbolMatcher';
import { matchUrls } from './urlMatcher';
import { matchWords } from './wordMatcher';

export type { EntityType, ExtractedEntity } from './entityTypes';

type Matcher = (ctx: ScanContext, out: Mention[]) => void;

/**
 * Every matcher proposes mentions independently; overlaps are settled afterwards by rank. Install
 * and prose commands are tried by the word matcher, at the words that name a program.
 */
const MATCHERS: readonly Matcher[] = [
  matchUrls,
  matchCommands,
  matchPaths,
  matchEnvVars,
  matchDates,
  matchPackageReferences,
  matchSymbols,
  matchWords,
];

/**
 * Finds the files, symbols, packages, tools, URLs, dates, names, environment variables and
 * commands a text mentions: pure, synchronous, no I/O, linear in the length of the text. Entities
 * come sorted by weight (most salient first), each with every mention's span.
 */
export function extractEntities(text: string): ExtractedEntity[] {
  if (typeof text !== 'string') {
    throw new EngramError('INVALID_INPUT', `extractEntities expects a string, got ${typeof text}`);
  }
  if (text.length === 0) return [];
  const ctx = createScanContext(text);
  const candidates: Mention[] = [];
  for (const match of MATCHERS) match(ctx, candidates);
  // An Engram id the text quotes (a peer card's member) is a reference, not a thing it is about.
  return mergeMentions(text, resolveMentions(ctx, candidates)).filter((e) => !isIdReference(e.name));
}
