import { noteLexicalChange } from '../lexical/lexicalChanges';
import { EVENT_INSERT, eventRow } from '../memory/eventLedger';
import type { SqlWriter } from '../store/sqlAccess';
import { summaryKey } from './sessionSummary';

/**
 * Memory rows by memory id: every version, its state, notes, ledger events, entity links,
 * injections and drift claims. The lexical row and the vectors go by document number; the number
 * itself stays (a row of two ids, no text) so that it is never given to another memory whose
 * vector the index cache could then confuse with this one's.
 */
const BY_MEMORY = [
  'memories WHERE id = ?',
  'memory_state WHERE id = ?',
  'annotations WHERE memory_id = ?',
  // Every event but the purge's own (below).
  "events WHERE memory_id = ? AND type <> 'purge'",
  'memory_entities WHERE memory_id = ?',
  'injections WHERE memory_id = ?',
  'drift_claims WHERE memory_id = ?',
  'drift_memories WHERE memory_id = ?',
];

/**
 * Deletes, for real, the memories capture wrote for these sessions (their summaries, every
 * version, and the conventions stated in them):
 * a purge leaves nothing derived from a session, and `forget` only hides. Entities no other memory
 * names go with them. Returns how many memories went.
 */
export function deleteSessionMemories(tx: SqlWriter, sessionIds: readonly string[], now: number): number {
  let deleted = 0;
  const entities = new Set<number>();
  for (const session of sessionIds) {
    const ids = tx
      .all<{ id: string }>(
        // Its summary's versions, and what capture stated from it (tagged capture, of this session).
        `SELECT DISTINCT id FROM memories WHERE conflict_key = ? OR (session = ? AND tags LIKE '%"capture"%')`,
        [summaryKey(session), session],
      )
      .map((r) => r.id);
    for (const id of ids) {
      // Before its other events go: SQLite numbers a new event after the largest left, so an
      // event written after them could take a number a replica has already seen, and be missed.
      tx.run(`${EVENT_INSERT} VALUES (?, ?, ?, ?, ?, ?)`, eventRow(now, { type: 'purge', memoryId: id }));
      for (const e of tx.all<{ entity_id: number }>(
        'SELECT entity_id FROM memory_entities WHERE memory_id = ?',
        [id],
      )) {
        entities.add(e.entity_id);
      }
      const doc = tx.value<number>('SELECT doc FROM memory_docs WHERE memory_id = ?', [id]);
      if (doc !== undefined) {
        tx.run('DELETE FROM memory_fts WHERE docid = ?', [doc]);
        tx.run('DELETE FROM memory_vectors WHERE doc = ?', [doc]);
        noteLexicalChange(doc);
      }
      for (const where of BY_MEMORY) tx.run(`DELETE FROM ${where}`, [id]);
      deleted++;
    }
  }
  deleteOrphanEntities(tx, entities);
  return deleted;
}

/**
 * The entities only those memories named (a file path, a tool), with their aliases, relations and
 * accumulated weights; an entity another memory still names, or that others were merged into,
 * stays. The store's entity cache must be reset after (MemoryStore.entitiesChanged).
 */
function deleteOrphanEntities(tx: SqlWriter, candidates: ReadonlySet<number>): void {
  for (const id of candidates) {
    const used =
      tx.value('SELECT 1 FROM memory_entities WHERE entity_id = ? LIMIT 1', [id]) !== undefined ||
      tx.value('SELECT 1 FROM entities WHERE merged_into = ? LIMIT 1', [id]) !== undefined;
    if (used) continue;
    tx.run('DELETE FROM relations WHERE source_id = ? OR target_id = ?', [id, id]);
    tx.run('DELETE FROM entity_aliases WHERE entity_id = ?', [id]);
    tx.run('DELETE FROM entity_weights WHERE entity_id = ?', [id]);
    tx.run('DELETE FROM entities WHERE id = ?', [id]);
  }
}
