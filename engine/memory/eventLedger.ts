import type { SqlWriter } from '../store/sqlAccess';
import type { SqlValue } from '../store/statementLog';

export type EventType =
  | 'remember'
  | 'duplicate'
  | 'update'
  | 'supersede'
  | 'edit'
  | 'annotate'
  | 'invalidate'
  | 'forget'
  | 'restore'
  | 'archive'
  | 'expire'
  | 'pin'
  | 'unpin'
  | 'read'
  | 'recall'
  | 'import'
  | 'merge-entities'
  | 'inject'
  | 'drift'
  | 'lifecycle'
  | 'promote'
  | 'dedup'
  | 'consolidate'
  | 'consolidation-run'
  | 'peer-card'
  | 'probe'
  /** The lifecycle settings now in force, whole (engine/lifecycle/lifecycleSettings.ts). */
  | 'lifecycle-settings'
  /** What a language model was asked about a captured session and what came of it (capture/observations/). */
  | 'capture-observations'
  /** A memory deleted outright (capture purge): its id and no text, so replicas delete it too. */
  | 'purge';

export interface LedgerEvent {
  type: EventType;
  memoryId?: string | null;
  agent?: string | null;
  session?: string | null;
  data?: Record<string, unknown>;
}

export const EVENT_INSERT = 'INSERT INTO events (at, type, memory_id, agent, session, data)';

/** The values of an event's row, in EVENT_INSERT's column order. */
export function eventRow(at: number, event: LedgerEvent): SqlValue[] {
  return [
    at,
    event.type,
    event.memoryId ?? null,
    event.agent ?? null,
    event.session ?? null,
    event.data === undefined ? null : JSON.stringify(event.data),
  ];
}

interface PendingRead extends LedgerEvent {
  at: number;
}

/**
 * The append-only event ledger. Write events are appended inside the write's own transaction.
 * Read and recall events are buffered and flushed with the next write or after a short delay:
 * they feed importance and analytics, and making every read pay an fsync would make reads slow.
 * A crash can lose at most the last few seconds of read events, never a write.
 */
export class EventLedger {
  private pending: PendingRead[] = [];

  append(tx: SqlWriter, at: number, event: LedgerEvent): void {
    tx.run(`${EVENT_INSERT} VALUES (?, ?, ?, ?, ?, ?)`, eventRow(at, event));
  }

  /** Buffers a read or recall; `accessed` memories get their access counters bumped on flush. */
  noteRead(at: number, event: LedgerEvent): void {
    this.pending.push({ ...event, at });
  }

  get pendingCount(): number {
    return this.pending.length;
  }

  /** Writes buffered reads and their access counters. Call inside a write transaction. */
  flush(tx: SqlWriter): void {
    const pending = this.pending;
    this.pending = [];
    for (const event of pending) {
      this.append(tx, event.at, event);
      const accessed = event.type === 'read' && event.memoryId ? [event.memoryId] : accessedIds(event);
      for (const id of accessed) {
        tx.run(
          'UPDATE memory_state SET access_count = access_count + 1, last_accessed_at = max(coalesce(last_accessed_at, 0), ?) WHERE id = ?',
          [event.at, id],
        );
      }
    }
  }
}

function accessedIds(event: LedgerEvent): string[] {
  const ids = event.data?.['memoryIds'];
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}
