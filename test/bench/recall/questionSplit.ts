import { createHash } from 'node:crypto';

/**
 * The fixed rule that splits a benchmark's questions into a tuning half and a reporting half,
 * decided before any retrieval change was measured against them: a question is in the tuning half
 * when the first byte of sha1(question id) is even. It depends on the id alone, so it does not move
 * when questions are added, reordered or re-categorised. On the LongMemEval oracle file (470
 * questions without `_abs`): tuning 235, reporting 235; preference 14 / 16, multi-session 60 / 61.
 * Parameters are tuned on the tuning half only; the reporting half is measured, never read while
 * tuning.
 */
export type QuestionHalf = 'tuning' | 'reporting';

export const QUESTION_HALVES: readonly QuestionHalf[] = ['tuning', 'reporting'];

export function questionHalf(id: string): QuestionHalf {
  return createHash('sha1').update(id).digest()[0]! % 2 === 0 ? 'tuning' : 'reporting';
}

/** The half a `--split` value names; a one-line error for anything else. */
export function parseHalf(value: string | undefined): QuestionHalf {
  if (value === 'tuning' || value === 'reporting') return value;
  throw new Error(
    `--split: expected tuning or reporting; got ${value === undefined ? 'nothing' : `"${value}"`}`,
  );
}
