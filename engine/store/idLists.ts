import type { SqlReader } from './sqlAccess';

/** SQLite binds at most 32,766 variables per statement: a long list of ids is read in slices. */
const IDS_PER_STATEMENT = 500;

/**
 * Rows of `sql(marks)` for every id, where `marks` is the `?, ?, ...` list one slice of ids binds
 * (`... WHERE id IN (${marks})`); `before` are bound ahead of each slice's ids.
 */
export function allForIds<T extends object>(
  reader: SqlReader,
  sql: (marks: string) => string,
  ids: ReadonlyArray<string | number>,
  before: ReadonlyArray<string | number> = [],
): T[] {
  const rows: T[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
    const slice = ids.slice(i, i + IDS_PER_STATEMENT);
    rows.push(...reader.all<T>(sql(slice.map(() => '?').join(', ')), [...before, ...slice]));
  }
  return rows;
}
