import type { Migration } from '../../store/migrate';

/**
 * Which commits carry a captured session's edits (commitLinks.ts), one row per session, commit and
 * file: `lines` of the session's added lines on that file are in the commit's added lines, out of
 * `session_lines`. Derived from the ledger's file touches and the repository's history, so
 * `capture rebuild` (or the next run) makes them again; a purge deletes them with the session.
 */
export function commitLinkMigration(version: number): Migration {
  return {
    version,
    name: 'capture: the commits that carry each session edits',
    up(tx) {
      tx.run(`
        CREATE TABLE capture_commit_links (
          session_id TEXT NOT NULL,
          commit_sha TEXT NOT NULL,
          path TEXT NOT NULL,
          lines INTEGER NOT NULL,
          session_lines INTEGER NOT NULL,
          subject TEXT NOT NULL,
          committed_at INTEGER NOT NULL,
          PRIMARY KEY (session_id, commit_sha, path)
        );
        CREATE INDEX capture_commit_links_commit ON capture_commit_links (commit_sha);
        CREATE INDEX capture_commit_links_path ON capture_commit_links (path);
      `);
    },
  };
}
