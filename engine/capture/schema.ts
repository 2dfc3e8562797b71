import type { Migration } from '../store/migrate';

/**
 * Capture: the agents' sessions as Engram read them.
 * - `capture_records` is the ledger: every record read, redacted, with its file and byte offset;
 *   everything else here is derived from it.
 * - `capture_sources` is the progress per file: the byte offset read up to and the reader's state,
 *   written in the same transaction as the records, so a killed ingest resumes with neither
 *   duplicates nor gaps.
 * - `capture_purged` keeps the ids of purged sessions, so that a later read of their files does
 *   not bring them back.
 * - `capture_settings` holds whether capture is enabled for this workspace (off until enabled).
 */
export function captureMigration(version: number): Migration {
  return {
    version,
    name: 'capture: session ledger, sessions, turns, tool calls, file touches, commands',
    up(tx) {
      tx.run(`
        CREATE TABLE capture_settings (
          key TEXT PRIMARY KEY,
          value TEXT NOT NULL
        );
        CREATE TABLE capture_sources (
          path TEXT PRIMARY KEY,
          agent TEXT NOT NULL,
          offset INTEGER NOT NULL,
          state TEXT,
          updated_at INTEGER NOT NULL
        );
        CREATE TABLE capture_records (
          id INTEGER PRIMARY KEY,
          source TEXT NOT NULL,
          offset INTEGER NOT NULL,
          length INTEGER NOT NULL,
          content_hash TEXT NOT NULL,
          session_id TEXT,
          status TEXT NOT NULL,
          raw TEXT NOT NULL,
          at INTEGER,
          recorded_at INTEGER NOT NULL,
          UNIQUE (source, offset, content_hash)
        );
        CREATE INDEX capture_records_session ON capture_records (session_id);
        CREATE TABLE capture_sessions (
          id TEXT PRIMARY KEY,
          agent TEXT NOT NULL,
          model TEXT,
          cwd TEXT,
          git_branch TEXT,
          git_commit TEXT,
          parent_id TEXT,
          title TEXT,
          source TEXT NOT NULL,
          started_at INTEGER,
          ended_at INTEGER,
          input_tokens INTEGER NOT NULL DEFAULT 0,
          output_tokens INTEGER NOT NULL DEFAULT 0,
          cache_read_tokens INTEGER NOT NULL DEFAULT 0,
          cache_write_tokens INTEGER NOT NULL DEFAULT 0,
          reasoning_tokens INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX capture_sessions_started ON capture_sessions (started_at);
        CREATE TABLE capture_turns (
          id INTEGER PRIMARY KEY,
          session_id TEXT NOT NULL,
          record_id INTEGER NOT NULL,
          role TEXT NOT NULL,
          text TEXT NOT NULL,
          thinking TEXT,
          model TEXT,
          at INTEGER
        );
        CREATE INDEX capture_turns_session ON capture_turns (session_id, id);
        CREATE TABLE capture_tool_calls (
          id INTEGER PRIMARY KEY,
          session_id TEXT NOT NULL,
          record_id INTEGER NOT NULL,
          call_id TEXT NOT NULL,
          name TEXT,
          arguments TEXT,
          status TEXT NOT NULL,
          output TEXT,
          exit_code INTEGER,
          duration_ms INTEGER,
          started_at INTEGER,
          ended_at INTEGER,
          UNIQUE (session_id, call_id)
        );
        CREATE TABLE capture_file_touches (
          id INTEGER PRIMARY KEY,
          session_id TEXT NOT NULL,
          record_id INTEGER NOT NULL,
          call_id TEXT,
          path TEXT NOT NULL,
          action TEXT NOT NULL,
          hunks TEXT,
          at INTEGER
        );
        CREATE INDEX capture_file_touches_session ON capture_file_touches (session_id, call_id);
        CREATE INDEX capture_file_touches_path ON capture_file_touches (path);
        CREATE TABLE capture_commands (
          id INTEGER PRIMARY KEY,
          session_id TEXT NOT NULL,
          record_id INTEGER NOT NULL,
          call_id TEXT,
          command TEXT NOT NULL,
          exit_code INTEGER,
          at INTEGER
        );
        CREATE INDEX capture_commands_session ON capture_commands (session_id, call_id);
        CREATE TABLE capture_purged (
          session_id TEXT PRIMARY KEY,
          purged_at INTEGER NOT NULL
        );
      `);
    },
  };
}
