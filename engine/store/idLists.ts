import type { SqlReader } from './sqlAccess';

/** SQLite binds at most 32,766 variables per statement: a long list of ids is read in slices. */
const IDS_PER_STATEMENT = 500;

/** The shortest list a padded statement binds: recall's short lists share one statement. */
const MIN_PADDED = 8;

/**
 * Placeholders for a list of values in `IN (...)`, padded with NULLs up to the next power of two
 * (at least 8). Every length of list is another statement, prepared on first use and kept: recall
 * reads lists whose length changes from call to call (the candidates whose status is not known
 * yet, the pool's rows), so it compiled a statement or two on most calls (0.3-0.5 ms each at 10k
 * memories, a fifth of a recall) and the statement cache grew with every new length. A NULL
 * matches nothing in `IN`, so the rows are the same; never use the padding with `NOT IN`.
 */
export function paddedList<T extends string | number>(
  values: readonly T[],
): { marks: string; params: Array<T | null> } {
  let size = MIN_PADDED;
  while (size < values.length) size *= 2;
  const params: Array<T | null> = [...values];
  while (params.length < size) params.push(null);
  return { marks: params.map(() => '?').join(', '), params };
}

/**
 * Rows of `sql(marks)` for every id, where `marks` is the `?, ?, ...` list one slice of ids binds
 * (`... WHERE id IN (${marks})`); `before` are bound ahead of each slice's ids. `padded`: each
 * slice's list padded as paddedList pads it, for statements run often with lists of every length.
 */
export function allForIds<T extends object>(
  reader: SqlReader,
  sql: (marks: string) => string,
  ids: ReadonlyArray<string | number>,
  before: ReadonlyArray<string | number> = [],
  padded = false,
): T[] {
  const rows: T[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
    const slice = ids.slice(i, i + IDS_PER_STATEMENT);
    const list = padded ? paddedList(slice) : { marks: slice.map(() => '?').join(', '), params: slice };
    rows.push(...reader.all<T>(sql(list.marks), [...before, ...list.params]));
  }
  return rows;
}
