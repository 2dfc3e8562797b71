import type { Migration } from '../store/migrate';

/**
 * Daily aggregates of the ledger's access rows (issue 21, section 3.8): read and recall events
 * older than the retention window are folded into one row per memory and day, so the ledger
 * stays small while importance's "distinct access days" and the analytics keep their input.
 */
export function accessDailyMigration(version: number): Migration {
  return {
    version,
    name: 'lifecycle: daily aggregates of pruned access events',
    up(tx) {
      tx.run(`
        CREATE TABLE access_daily (
          day INTEGER NOT NULL,
          memory_id TEXT NOT NULL,
          reads INTEGER NOT NULL DEFAULT 0,
          recalls INTEGER NOT NULL DEFAULT 0,
          PRIMARY KEY (memory_id, day)
        );
      `);
    },
  };
}
