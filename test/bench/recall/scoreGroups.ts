import { round } from '../stats';
import { mean } from './metrics';

/** One query's scores, with its category and, where the benchmark has a fixed split, its half. */
export interface ScoredQuery {
  category: string;
  half?: string;
  values: Record<string, number>;
}

/** group ("overall", a category, "reporting half", "<category>, reporting half") -> metric -> mean; `n` is the count. */
export type Scores = Record<string, Record<string, number>>;

/**
 * The bench's groups: overall and per category, then, for queries that belong to a half of a fixed
 * split (questionSplit.ts, LoCoMo's conversations), per half and per category within each half, so
 * one run prints the figures on the half tuned on and on the half not tuned on side by side (the
 * targets are on the latter).
 */
export function scoreGroups(rows: readonly ScoredQuery[]): Scores {
  const groups = new Map<string, ScoredQuery[]>([['overall', [...rows]]]);
  const add = (group: string, row: ScoredQuery) => groups.set(group, [...(groups.get(group) ?? []), row]);
  for (const row of rows) add(row.category, row);
  for (const row of rows) if (row.half !== undefined) add(`${row.half} half`, row);
  for (const row of rows) if (row.half !== undefined) add(`${row.category}, ${row.half} half`, row);
  const metrics = Object.keys(rows[0]?.values ?? {});
  const scores: Scores = {};
  for (const [group, members] of groups) {
    scores[group] = Object.fromEntries(
      metrics.map((m) => [m, round(mean(members.map((r) => r.values[m]!)), 3)]),
    );
    scores[group]['n'] = members.length;
  }
  return scores;
}
