import type { Migration } from '../store/migrate';

/**
 * The code index tables, as one migration for the engine's list in engine/memory/schema.ts.
 * Register it at the next free version: `codeIndexMigration(MIGRATIONS.length + 1)` appended to
 * MIGRATIONS (and never renumber it once released).
 *
 * - `code_scans`: one row per scan. `status` is 'running' until the scan ends ('complete' or
 *   'aborted'); a row still 'running' when the next scan starts is a scan that was killed.
 * - `code_files`: one row per indexed file. A row is written only in the transaction that writes
 *   the file's symbols, imports, references and manifest, so its content hash never claims
 *   progress that was not recorded. `generation` is the scan that last wrote it.
 * - `code_symbols`, `code_imports` (with the resolved workspace path), `code_references` (one
 *   JSON map of identifier -> count per file) and `code_manifests` (one parsed manifest per file)
 *   belong to a file by `file_id` and are replaced with it. A rename only changes `code_files.path`.
 */
export function codeIndexMigration(version: number): Migration {
  return {
    version,
    name: 'code index: files, symbols, imports, references, manifests, scans',
    up(tx) {
      tx.run(`
        CREATE TABLE code_scans (
          generation INTEGER PRIMARY KEY,
          root TEXT NOT NULL,
          status TEXT NOT NULL,
          started_at INTEGER NOT NULL,
          finished_at INTEGER,
          stats TEXT
        );
        CREATE TABLE code_files (
          id INTEGER PRIMARY KEY,
          path TEXT NOT NULL UNIQUE,
          language TEXT,
          content_hash TEXT NOT NULL,
          size INTEGER NOT NULL,
          mtime_ms REAL NOT NULL,
          lines INTEGER NOT NULL,
          parsed INTEGER NOT NULL,
          has_errors INTEGER NOT NULL,
          generation INTEGER NOT NULL
        );
        CREATE INDEX code_files_hash ON code_files (content_hash);
        CREATE TABLE code_symbols (
          id INTEGER PRIMARY KEY,
          file_id INTEGER NOT NULL,
          name TEXT NOT NULL,
          kind TEXT NOT NULL,
          signature TEXT NOT NULL,
          doc TEXT,
          start_line INTEGER NOT NULL,
          end_line INTEGER NOT NULL,
          exported INTEGER NOT NULL,
          container TEXT
        );
        CREATE INDEX code_symbols_file ON code_symbols (file_id);
        CREATE INDEX code_symbols_name ON code_symbols (name);
        CREATE TABLE code_imports (
          id INTEGER PRIMARY KEY,
          file_id INTEGER NOT NULL,
          specifier TEXT NOT NULL,
          resolved_path TEXT,
          line INTEGER NOT NULL
        );
        CREATE INDEX code_imports_file ON code_imports (file_id);
        CREATE INDEX code_imports_resolved ON code_imports (resolved_path) WHERE resolved_path IS NOT NULL;
        CREATE TABLE code_references (
          file_id INTEGER PRIMARY KEY,
          names TEXT NOT NULL
        );
        CREATE TABLE code_manifests (
          file_id INTEGER PRIMARY KEY,
          kind TEXT NOT NULL,
          name TEXT,
          data TEXT NOT NULL
        );
      `);
    },
  };
}
