import { lexicalRow, LEXICAL_INSERT } from '../lexical/lexicalIndex';
import type { IndexedText } from '../lexical/lexicalIndex';
import { noteLexicalChange } from '../lexical/lexicalChanges';
import { HeldRows } from '../store/heldRows';
import type { SqlWriter } from '../store/sqlAccess';
import { EVENT_INSERT, eventRow } from './eventLedger';
import type { LedgerEvent } from './eventLedger';

const STATE_INSERT = 'INSERT INTO memory_state (id, pinned)';
const DOCS_INSERT = 'INSERT INTO memory_docs (doc, memory_id)';

export interface NewMemory {
  id: string;
  pinned: boolean;
  /** Undefined: its lexical row is written later (deferredDerivations.ts). */
  indexed: IndexedText | undefined;
  at: number;
  event: LedgerEvent;
}

/**
 * The rows a memory created by `remember` adds beside its version: its counters, its document
 * number, its lexical row and its ledger event. They are held and written a few statements per
 * table when the remember call ends (a batch of 1,000 memories: ~16 statements instead of 5,000).
 * Nothing reads them before that: the owner flushes before any path of the same transaction that
 * could (duplicates, restatements, conflict keys) and discards them when the transaction fails.
 *
 * Document numbers are given here, from the largest stored one, as SQLite would give them (the
 * largest rowid + 1); the journal records the numbers, so a replay writes the same ones.
 */
export class NewMemoryRows {
  private readonly held = new HeldRows();
  private nextDoc: number | undefined;

  /** Holds the memory's rows; returns its document number (vectors are keyed by it). */
  add(tx: SqlWriter, memory: NewMemory): number {
    this.nextDoc ??= (tx.value<number>('SELECT max(doc) FROM memory_docs') ?? 0) + 1;
    const doc = this.nextDoc++;
    this.held.hold(STATE_INSERT, [memory.id, memory.pinned ? 1 : 0]);
    this.held.hold(DOCS_INSERT, [doc, memory.id]);
    if (memory.indexed) this.held.hold(LEXICAL_INSERT, lexicalRow(doc, memory.indexed));
    this.held.hold(EVENT_INSERT, eventRow(memory.at, memory.event));
    if (memory.indexed) noteLexicalChange(doc);
    return doc;
  }

  flush(tx: SqlWriter): void {
    if (!this.held.empty) this.held.flush(tx);
    // Other writers of memory_docs (an edit indexing an old memory) may follow: ask again next time.
    this.nextDoc = undefined;
  }

  discard(): void {
    this.held.discard();
    this.nextDoc = undefined;
  }
}
