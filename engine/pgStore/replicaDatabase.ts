import type { Database, SqlJsStatic } from 'sql.js';
import { EngramError } from '../errors';
import { noteLexicalChange } from '../lexical/lexicalChanges';
import type { Clock } from '../host';
import type { EngineDatabase, StoreStats } from '../store/engineDatabase';
import { LocalTransactions } from '../store/localTransactions';
import { replayRecords } from '../store/replay';
import type { SqlReader, SqlWriter } from '../store/sqlAccess';
import { databaseFromBytes, readMeta } from '../store/snapshotFile';
import type { TransactionRecord } from '../store/statementLog';
import type { ReplicaChanges } from './recallRowSync';

/** The table FTS4 keeps memory_fts's rows in, by docid (see liveLexicalIndex.ts). */
const LEXICAL_ROWS = 'memory_fts_content';

/**
 * One server process's copy of a PostgreSQL store: an in-memory sql.js database loaded from a
 * snapshot and kept current by replaying the journal's records (`catchUp`). The engine reads and
 * writes it as it does a file store; its writes are kept only inside `hold()` ... `release()`,
 * which the replicated engine (replicatedEngine.ts) opens around a call, and whose records it
 * appends to PostgreSQL before it keeps them here.
 */
export class ReplicaDatabase implements EngineDatabase {
  private readonly transactions: LocalTransactions;
  private pending: TransactionRecord[] = [];
  /** Rows the held call changed, for PostgreSQL's recall tables (recallRowSync.ts). */
  private changes = emptyChanges();
  private closed = false;
  /** The newest snapshot this process knows of (for stats). */
  private snapshotSeq: number;

  private constructor(
    private readonly db: Database,
    readonly path: string,
    private readonly clock: Clock,
  ) {
    this.snapshotSeq = Number(readMeta(db, 'journal_seq'));
    this.transactions = new LocalTransactions(db, this.snapshotSeq);
  }

  /** The replica of a snapshot's bytes; `configure` registers SQL functions (bm25). */
  static fromSnapshot(
    sql: SqlJsStatic,
    bytes: Uint8Array,
    where: string,
    clock: Clock,
    configure?: (db: Database) => void,
  ): ReplicaDatabase {
    const db = databaseFromBytes(sql, bytes);
    configure?.(db);
    return new ReplicaDatabase(db, where, clock);
  }

  get lastSeq(): number {
    return this.transactions.seq;
  }

  get inWrite(): boolean {
    return this.transactions.inWrite;
  }

  read<T>(fn: (reader: SqlReader) => T): T {
    this.assertOpen();
    return this.transactions.read(fn);
  }

  /**
   * A write inside the open hold: its record waits in `pending` for PostgreSQL. Outside a hold
   * (a background task) a write that changes something is refused.
   */
  write<T>(fn: (writer: SqlWriter) => T): T {
    this.assertOpen();
    return this.transactions.write(fn, this.clock(), (record) => {
      // Refused here, so the write is rolled back: nothing could append it to the journal.
      if (!this.transactions.holding)
        throw new EngramError('STORE', 'a PostgreSQL replica writes only inside a served call');
      this.pending.push(record);
    });
  }

  get holding(): boolean {
    return this.transactions.holding;
  }

  /** Opens the transaction that holds a call's writes until PostgreSQL has them. */
  hold(): void {
    this.assertOpen();
    this.pending = [];
    this.changes = emptyChanges();
    this.transactions.hold();
    const { lexical, memories, vectors } = this.changes;
    // Rowids only: a hook may not query. Rows changed and then rolled back are read as they are.
    this.db.updateHook((_operation, _database, table, rowid) => {
      if (table === LEXICAL_ROWS) lexical.add(Number(rowid));
      else if (table === 'memories') memories.add(Number(rowid));
      else if (table === 'memory_vectors') vectors.add(Number(rowid));
    });
  }

  /** What the held call changed so far. */
  get changed(): ReplicaChanges {
    return this.changes;
  }

  /** The records written since `hold()`, oldest first. */
  get written(): readonly TransactionRecord[] {
    return this.pending;
  }

  /** Keeps the held writes (PostgreSQL committed them) or undoes them (it did not). */
  release(keep: boolean): void {
    this.pending = [];
    this.db.updateHook(null);
    this.transactions.release(keep);
  }

  /**
   * Applies records from PostgreSQL after this replica's last one; returns how many. The lexical
   * documents they (re)wrote are reported as the engine's write path reports its own, so the
   * in-memory lexical copy re-reads them: replay writes FTS rows by SQL alone. The team server's
   * writes only insert FTS rows (an edit deletes and inserts the same document in one record);
   * purges, the one path that only deletes, belong to capture, which the server does not serve.
   */
  catchUp(records: readonly TransactionRecord[]): number {
    this.assertOpen();
    const fresh = records.filter((r) => r.seq > this.transactions.seq);
    if (fresh.length === 0) return 0;
    if (this.transactions.holding) throw new Error('cannot replay records while a call is held');
    const docs = new Set<number>();
    this.db.updateHook((_operation, _database, table, rowid) => {
      if (table === LEXICAL_ROWS) docs.add(Number(rowid));
    });
    try {
      this.transactions.seq = replayRecords(this.db, fresh, this.transactions.seq, this.path);
    } finally {
      this.db.updateHook(null);
    }
    for (const doc of docs) noteLexicalChange(doc);
    return fresh.length;
  }

  /** The database's bytes now (between calls: nothing held). */
  exportBytes(): Uint8Array {
    this.assertOpen();
    if (this.transactions.holding) throw new Error('cannot export while a call is held');
    return this.db.export();
  }

  snapshotTaken(seq: number): void {
    this.snapshotSeq = seq;
  }

  /** Snapshots are written by the replicated engine after a call (it has the connection). */
  snapshot(): Promise<void> {
    return Promise.resolve();
  }

  /** Nothing to hold: this thread never exports snapshots by journal size. */
  bulk<T>(fn: () => Promise<T>): Promise<T> {
    return fn();
  }

  stats(): StoreStats {
    return {
      seq: this.transactions.seq,
      snapshotSeq: this.snapshotSeq,
      journalBytes: 0,
      journalRecords: this.transactions.seq - this.snapshotSeq,
      journalSynced: true,
    };
  }

  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.transactions.clear();
      this.db.close();
    }
    return Promise.resolve();
  }

  private assertOpen(): void {
    if (this.closed) throw new EngramError('CLOSED', `the replica of ${this.path} is closed`);
    const broken = this.transactions.broken;
    if (broken) throw broken;
  }
}

function emptyChanges(): { lexical: Set<number>; memories: Set<number>; vectors: Set<number> } {
  return { lexical: new Set(), memories: new Set(), vectors: new Set() };
}
