import { createHash } from 'node:crypto';

/**
 * The fixed rule that splits CoSQA's 500 dev queries into a tuning half and a reporting half,
 * decided before any CoSQA change was tuned (issue 17): a query is in the tuning half when the last
 * hex digit of sha1(its idx) is even. On the dev file: 253 tuning, 247 reporting queries. Changes
 * are chosen on the tuning half only; the reporting half is measured, never looked at while tuning.
 */
export type CosqaHalf = 'tuning' | 'reporting';

export const COSQA_HALVES: readonly CosqaHalf[] = ['tuning', 'reporting'];

export function cosqaHalf(queryId: string): CosqaHalf {
  const last = createHash('sha1').update(queryId, 'utf8').digest('hex').slice(-1);
  return parseInt(last, 16) % 2 === 0 ? 'tuning' : 'reporting';
}

/** `--split` value to a half; undefined keeps every query. Anything else is a one-line error. */
export function parseCosqaHalf(value: string | undefined): CosqaHalf | undefined {
  if (value === undefined) return undefined;
  if ((COSQA_HALVES as readonly string[]).includes(value)) return value as CosqaHalf;
  throw new Error(`--split must be tuning or reporting; got ${value || '(nothing)'}`);
}
