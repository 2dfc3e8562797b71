import type { Migration } from '../store/migrate';

/**
 * Team memories: the files under `.engram/team/` as this clone last indexed them.
 * - `team_id` is the id in the file (its name); `memory_id` the local memory that holds it (the
 *   same id in the clone that shared it, a local one in every other clone).
 * - `theirs_id`: while the file holds git conflict markers, the local memory holding the other
 *   side; NULL otherwise.
 * - `content_hash` is the hash of the file's bytes when last indexed, NULL once the file is gone
 *   from the branch: a file whose hash differs is indexed again, the others are not read twice.
 * - `changed_at`, `changed_by` (`files`: a pull, merge or branch switch; `local`: this clone wrote
 *   the file) and `last_change` (added, edited, retired, conflict, resolved) feed `team status`.
 */
export function teamMigration(version: number): Migration {
  return {
    version,
    name: 'team memories: the indexed files of .engram/team',
    up(tx) {
      tx.run(`
        CREATE TABLE team_files (
          team_id TEXT PRIMARY KEY,
          memory_id TEXT NOT NULL,
          theirs_id TEXT,
          content_hash TEXT,
          file_version INTEGER NOT NULL,
          changed_at INTEGER NOT NULL,
          changed_by TEXT NOT NULL,
          last_change TEXT NOT NULL
        );
        CREATE INDEX team_files_memory ON team_files (memory_id);
      `);
    },
  };
}
