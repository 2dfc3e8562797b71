import { z } from 'zod';
import { TIME_EXPECTED, timeOf } from '../memory/validate';

/**
 * Parameter fields several methods share, each with the engine's own wording for what it expects
 * (parseParams.ts puts the field name in front and what came behind). A field without a message
 * here gets parseParams' rewrite of zod's ("must be a number", "is required (text)").
 */

const REQUIRED_TEXT = 'is required (text)';
const LIST_OF_TEXT = 'must be a list of text';

/** Text that must say something: blank is refused as missing. */
export const requiredText = z
  .string()
  .min(1, REQUIRED_TEXT)
  .refine((value) => value.trim() !== '', REQUIRED_TEXT);

/** A memory id, or a unique prefix of one (resolveId in memory/memoryQueries.ts). */
export const idParam = requiredText.max(200).describe('memory id, or a unique prefix of 6+ characters');

/** A list of text; a wrong item names the list, as the field checks always did. */
export const textList = z.array(z.string(LIST_OF_TEXT), LIST_OF_TEXT);

/** Workspace paths: a list of text, none of it blank (blank would name the whole workspace). */
export const pathList = textList.refine(
  (paths) => paths.every((path) => path.trim() !== ''),
  'must not hold empty text',
);

/** A time as ISO 8601 text or epoch milliseconds, parsed here (timeOf in memory/validate.ts). */
export const timeParam = z.union([z.string(), z.number()], TIME_EXPECTED).transform((value, ctx) => {
  const time = timeOf(value);
  if (time === undefined) ctx.addIssue({ code: 'custom', message: TIME_EXPECTED });
  return time ?? z.NEVER;
});

/** A whole number in `[min, max]`, refused with `expected` (a limit with a reason says it once). */
export function wholeNumber(min: number, max: number, expected: string) {
  return z.number().int(expected).min(min, expected).max(max, expected);
}
