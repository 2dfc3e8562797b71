import type { MemoryStore } from '../memory/memoryStore';
import { recalledIds } from './accessRows';

const DAY = 24 * 60 * 60 * 1000;

/** Raw read and recall rows are kept this long, then folded into daily aggregates. @default 90 days */
export const DEFAULT_ACCESS_RETENTION_DAYS = 90;

export interface LedgerPruning {
  /** Raw access events folded and deleted. */
  folded: number;
  /** Aggregate rows (memory, day) written or added to. */
  aggregates: number;
}

/**
 * Step 8 of consolidation: read and recall events older than the retention window become one
 * `access_daily` row per memory and day (reads and recalls counted apart), and the raw rows are
 * deleted, in one transaction: a crash leaves either the raw rows or their aggregates, never both.
 * Only whole days before the cutoff are folded, so a day is never split between raw and aggregate.
 */
export function pruneAccessLedger(
  store: MemoryStore,
  retentionDays: number = DEFAULT_ACCESS_RETENTION_DAYS,
): LedgerPruning {
  if (!Number.isFinite(retentionDays) || retentionDays < 1)
    throw new Error(`access retention must be at least 1 day, got ${retentionDays}`);
  const cutoffAt = (now: number) => Math.floor((now - retentionDays * DAY) / DAY) * DAY;
  // Nothing to fold: no write, so a scheduled run on an idle store appends nothing to the journal.
  const due = store.read((r) =>
    r.value("SELECT 1 FROM events WHERE at < ? AND type IN ('read', 'recall') LIMIT 1", [
      cutoffAt(store.clock()),
    ]),
  );
  if (due === undefined) return { folded: 0, aggregates: 0 };
  return store.write((tx, now) => {
    const cutoff = cutoffAt(now);
    const rows = tx.all<{ at: number; type: string; memoryId: string | null; data: string | null }>(
      `SELECT at, type, memory_id AS memoryId, data FROM events
       WHERE type IN ('read', 'recall') AND at < ?`,
      [cutoff],
    );
    const counts = new Map<string, { memoryId: string; day: number; reads: number; recalls: number }>();
    const count = (memoryId: string, at: number, field: 'reads' | 'recalls') => {
      const day = Math.floor(at / DAY);
      const key = `${memoryId}\u0000${day}`;
      let entry = counts.get(key);
      if (!entry) counts.set(key, (entry = { memoryId, day, reads: 0, recalls: 0 }));
      entry[field]++;
    };
    for (const row of rows) {
      if (row.type === 'read' && row.memoryId) count(row.memoryId, row.at, 'reads');
      else if (row.type === 'recall' && row.data)
        for (const id of recalledIds(row.data)) count(id, row.at, 'recalls');
    }
    for (const c of counts.values())
      tx.run(
        `INSERT INTO access_daily (memory_id, day, reads, recalls) VALUES (?, ?, ?, ?)
         ON CONFLICT (memory_id, day) DO UPDATE SET reads = reads + excluded.reads, recalls = recalls + excluded.recalls`,
        [c.memoryId, c.day, c.reads, c.recalls],
      );
    tx.run("DELETE FROM events WHERE type IN ('read', 'recall') AND at < ?", [cutoff]);
    return { folded: rows.length, aggregates: counts.size };
  });
}
