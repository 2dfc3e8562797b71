import { invalidParams } from './argumentErrors';
import { z } from 'zod';
import { tokenCount } from '../retrieval/tokenCount';

/**
 * Every tool result fits a token budget, with a cursor for the rest: an agent asks for the next
 * page instead of receiving 80k tokens at once. The budget counts the structured result's JSON
 * (the larger of the two forms a client may forward to the model) with a real tokenizer.
 */
export const DEFAULT_BUDGET = 4000;
export const MAX_BUDGET = 50_000;

export const budgetField = z
  .number()
  .int()
  .min(200)
  .max(MAX_BUDGET)
  .optional()
  .describe(`most tokens the result may take (default ${DEFAULT_BUDGET}); the rest comes with a cursor`);

export const cursorField = z
  .string()
  .max(500)
  .optional()
  .describe('the cursor of the previous result, to get its next page');

export const nextCursorField = z
  .string()
  .nullable()
  .describe('pass as cursor to get the rest; null when this is everything');

/**
 * Tokens of a value as JSON, counted with the real tokenizer: characters/4 undercounts JSON (ids,
 * ISO times and punctuation tokenize densely), which let whole results run 20-60% over budget.
 */
export function jsonTokens(value: unknown): number {
  return tokenCount(JSON.stringify(value) ?? 'null');
}

/**
 * True when every item certainly fits `budget` tokens (+1 each for its comma) without counting:
 * o200k never makes more tokens of a text than it has UTF-8 bytes, so a page whose JSON is within
 * the budget in bytes is taken whole, as counting would take it, without loading or running the
 * tokenizer (its table loads in ~25 ms from dist/, gpt-tokenizer's in ~0.2 s from the sources).
 * Special tokens written in a text count as text (tokenCount), so they keep to that bound too.
 */
function allFitUncounted(items: readonly unknown[], budget: number): boolean {
  let bytes = 0;
  for (const item of items) {
    const json = JSON.stringify(item) ?? 'null';
    bytes += Buffer.byteLength(json) + 1;
    if (bytes > budget) return false;
  }
  return true;
}

/**
 * What a page's wrapper costs beside its items: field names, totals and a cursor (~40 tokens of
 * base64), so the items get the budget less this.
 */
export const ENVELOPE_TOKENS = 100;

export interface Fitted<T> {
  items: T[];
  /** How many of the offered items were taken (the next page starts after them). */
  taken: number;
}

/**
 * Takes items in order while they fit `budget` tokens. The first item is always taken, cut with
 * `shrink` if it alone is over budget, so a page always moves the cursor forward.
 */
export function fitToBudget<T>(
  items: T[],
  budget: number,
  shrink?: (item: T, budget: number) => T,
): Fitted<T> {
  if (allFitUncounted(items, budget - ENVELOPE_TOKENS)) return { items: [...items], taken: items.length };
  const out: T[] = [];
  let left = budget - ENVELOPE_TOKENS;
  for (const item of items) {
    // +1: the comma that joins it to the list.
    const cost = jsonTokens(item) + 1;
    if (cost > left) {
      if (out.length === 0) out.push(shrink ? shrink(item, budget) : item);
      break;
    }
    out.push(item);
    left -= cost;
  }
  return { items: out, taken: out.length };
}

/** Cursors are opaque to clients: base64url JSON of the position and the tool they belong to. */
export function encodeCursor(tool: string, position: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify({ t: tool, ...position })).toString('base64url');
}

export function decodeCursor(tool: string, cursor: string | undefined): Record<string, unknown> | undefined {
  if (cursor === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  if (typeof value !== 'object' || value === null || (value as { t?: unknown }).t !== tool) {
    throw invalidParams(`${tool}: cursor: not a cursor of ${tool}`);
  }
  return value as Record<string, unknown>;
}

/** A whole number at `key` of a decoded cursor, or `fallback` without a cursor. */
export function cursorNumber(
  tool: string,
  position: Record<string, unknown> | undefined,
  key: string,
  fallback: number,
): number {
  if (position === undefined) return fallback;
  const value = position[key];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw invalidParams(`${tool}: cursor: not a cursor of ${tool}`);
  }
  return value;
}

/** The items, in order, while they fit `budget` tokens (none when the first does not). */
export function strictlyWithin<T>(items: readonly T[], budget: number): T[] {
  if (allFitUncounted(items, budget)) return [...items];
  const kept: T[] = [];
  let left = budget;
  for (const item of items) {
    const cost = jsonTokens(item) + 1;
    if (cost > left) break;
    kept.push(item);
    left -= cost;
  }
  return kept;
}
