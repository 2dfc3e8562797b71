import type { EntityType } from './entityTypes';

/**
 * How much an entity of each type tells about a coding memory on its own: files, symbols and
 * commands pin a memory to code; people matter in conversations; dates and URLs are context.
 */
const TYPE_PRIOR: Readonly<Record<EntityType, number>> = {
  file: 0.9,
  symbol: 0.85,
  command: 0.85,
  package: 0.8,
  person: 0.8,
  directory: 0.75,
  env: 0.75,
  tool: 0.7,
  url: 0.65,
  name: 0.6,
  date: 0.6,
};

/**
 * Salience in 0..1 = type prior x frequency x position, rounded to 3 decimals.
 * - frequency = 1 - 0.4 * 0.5^(mentions - 1): 0.6 for one mention, 0.8 for two, 0.9 for three,
 *   approaching 1; repetition says "this is what the text is about", with diminishing returns.
 * - position = 1 - 0.25 * (first mention offset / text length): from 1 at the start down to 0.75
 *   at the end; memories tend to name their subject first.
 * So a file named once at the start (0.54) outranks a date named once at the start (0.36), and a
 * tool named three times (0.63) outranks a file named once at the end (0.41).
 */
export function salience(type: EntityType, mentions: number, firstStart: number, textLength: number): number {
  const frequency = 1 - 0.4 * 0.5 ** (Math.max(1, mentions) - 1);
  const position = 1 - 0.25 * Math.min(1, firstStart / Math.max(1, textLength));
  return Math.round(TYPE_PRIOR[type] * frequency * position * 1000) / 1000;
}
