/**
 * Work that several server processes of one PostgreSQL store would each do, done by one of them:
 * embedding a memory that has no vector yet (claimed per document with a transaction-scoped
 * advisory lock, held while the process embeds it) and the timed lifecycle run (once per period
 * per store, decided under the write lock from `engram_timed_runs`).
 */
import type { HeldTransaction } from './pgJournal';
import type { Queryable } from './recallTables';

/**
 * Takes, in `held`'s transaction, the advisory lock of each of `docs` for embedding with `model`
 * in this store (its schema, so two teams' stores never claim each other's documents), skipping
 * those another process holds: the documents now this process's to embed, until `held` ends.
 */
export async function claimDocuments(
  held: HeldTransaction,
  model: string,
  docs: number[],
): Promise<number[]> {
  if (docs.length === 0) return [];
  // pg_try_advisory_xact_lock(int, int): the first key names the store and model, the second the
  // document. No LIMIT: every row the function is evaluated on is locked, so each is one we keep.
  const { rows } = await held.db.query<{ doc: number }>(
    `SELECT doc FROM unnest($2::integer[]) AS doc
     WHERE pg_try_advisory_xact_lock(hashtext(current_schema() || ':embedding:' || $1), doc)`,
    [model, docs],
  );
  return rows.map((row) => Number(row.doc));
}

/** When `name` last ran on this store (the engine's clock), if it ever did. */
export async function lastRun(db: Queryable, name: string): Promise<number | undefined> {
  const { rows } = await db.query<{ ran_at: string }>(
    'SELECT ran_at FROM engram_timed_runs WHERE name = $1',
    [name],
  );
  return rows[0] === undefined ? undefined : Number(rows[0].ran_at);
}

/** Records a run of `name` at `at`, counting it (how many runs the store had: one per period). */
export async function markRun(db: Queryable, name: string, at: number): Promise<void> {
  await db.query(
    `INSERT INTO engram_timed_runs (name, ran_at, runs) VALUES ($1, $2, 1)
     ON CONFLICT (name) DO UPDATE SET ran_at = excluded.ran_at, runs = engram_timed_runs.runs + 1`,
    [name, at],
  );
}
