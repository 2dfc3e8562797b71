import type { Migration } from '../store/migrate';

/**
 * The drift checker's tables, as one migration for the engine's list in engine/memory/schema.ts
 * (registered there as `driftMigration(6)`; never renumber it once released).
 *
 * - `drift_memories`: one row per memory whose claims were extracted, with the content hash they
 *   were extracted from (a memory whose current hash differs, or that has no row, is extracted
 *   again on the next check: that is how memories written before this migration get claims), the
 *   last drift status, the `valid_to` the checker applied and the hash it last flagged for review,
 *   so a repeated check neither records the same drift twice nor annotates twice.
 * - `drift_claims`: what a memory asserts that can be checked, with its span in the content and
 *   the result of the last check (verdict and evidence as JSON).
 */
export function driftMigration(version: number): Migration {
  return {
    version,
    name: 'drift: checkable claims of memories and their last verdicts',
    up(tx) {
      tx.run(`
        CREATE TABLE drift_memories (
          memory_id TEXT PRIMARY KEY,
          content_hash TEXT NOT NULL,
          extracted_at INTEGER NOT NULL,
          status TEXT,
          checked_at INTEGER,
          applied_valid_to INTEGER,
          flagged_hash TEXT
        );
        CREATE TABLE drift_claims (
          id INTEGER PRIMARY KEY,
          memory_id TEXT NOT NULL,
          kind TEXT NOT NULL,
          subject TEXT NOT NULL,
          file TEXT,
          negated INTEGER NOT NULL,
          span_start INTEGER NOT NULL,
          span_end INTEGER NOT NULL,
          detail TEXT,
          verdict TEXT,
          evidence TEXT,
          checked_at INTEGER
        );
        CREATE INDEX drift_claims_memory ON drift_claims (memory_id);
        CREATE INDEX drift_claims_subject ON drift_claims (subject);
        CREATE INDEX drift_claims_file ON drift_claims (file) WHERE file IS NOT NULL;
      `);
    },
  };
}

/**
 * The drift check's history answers (historyStore.ts), so a re-check from a new process asks git
 * only what changed. `key` hashes the question (with HEAD when the answer depends on it); `head`
 * is that HEAD, NULL when the commit hashes of the question alone decide the answer (kept until
 * least recently used past the bound); `answer` is JSON; `used_at` orders the eviction.
 */
export function historyAnswersMigration(version: number): Migration {
  return {
    version,
    name: 'drift: stored git history answers, keyed by the commits they are about',
    up(tx) {
      tx.run(`
        CREATE TABLE drift_history (
          key TEXT PRIMARY KEY,
          head TEXT,
          answer TEXT NOT NULL,
          used_at INTEGER NOT NULL
        );
        CREATE INDEX drift_history_used ON drift_history (used_at);
      `);
    },
  };
}
