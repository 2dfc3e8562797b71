import type { EngineDatabase } from '../store/engineDatabase';
import type { SqlReader, SqlWriter } from '../store/sqlAccess';

/** A memory whose entity links and lexical row are still to be written (see DeferredDerivations). */
export interface Derivation {
  id: string;
  /** Its document number, given when the memory was written (the lexical row is keyed by it). */
  doc: number;
  /** The time of the write that created it: the derived rows carry it, as if written with it. */
  at: number;
}

/** engram_meta keys of memories whose derived rows are not written yet. */
const MARKER = 'derive:';

/**
 * The derived rows of a single remember (entity links, co-occurrence, the lexical row: about half
 * of its CPU) are written in a second transaction after the one holding the memory itself, which
 * is all the caller's acknowledgement waits for: the host derives them while the disk syncs the
 * first (engineDispatcher.ts, group commit) or on the next turn of the event loop.
 *
 * Nothing is lost by a crash in between: the first transaction leaves a marker in engram_meta,
 * which the second deletes, and a store opened with markers derives them before anything reads or
 * writes it. Every read and write of the memory store settles the pending derivations first, in
 * the order their memories were written, so what is stored and what reads see is what one
 * transaction per remember stored and saw (read-your-writes).
 *
 * Deferring pays only when the rows can be written while nothing waits: while the disk syncs a
 * group of writes, or in the idle time before the next call. A remember that is alone and follows
 * the previous write back to back derives its rows in its own transaction (see `deferrable`).
 */
export class DeferredDerivations {
  /** Marked in the open transaction: pending once it commits. */
  private staged: Derivation[] = [];
  /** Undefined until the markers a previous process left were read (on first use). */
  private pending: Derivation[] | undefined;

  private settling = false;
  /**
   * True once the event loop went round (a check phase ran) since the last write ended: the caller
   * left the thread idle. False when the next write came in the same turn (back to back): a
   * deferred derivation would then only be paid at the start of the next call, plus a second
   * transaction (+14% CPU per remember on main). A store starts idle.
   */
  private idleTurn = true;
  private watchingTurn = false;
  private deferNow = true;

  /** `settleSoon`: what the owner runs a turn after a commit with markers (its `settle`). */
  constructor(private readonly settleSoon: () => void) {}

  /**
   * Writes the derived rows of every pending memory (`derive`, then its marker goes) in one
   * transaction. Journaled without waiting for its fdatasync: a power cut that loses it leaves
   * the markers, and the next acknowledged write syncs it anyway. If it fails, `rolledBack` resets
   * the owner's caches and the memories stay pending (the error reaches the caller).
   */
  settle(db: EngineDatabase, derive: (tx: SqlWriter, d: Derivation) => void, rolledBack: () => void): void {
    if (this.settling || this.settled) return;
    const pending = db.read((reader) => this.take(reader));
    if (pending.length === 0) return;
    this.settling = true;
    try {
      db.write(
        (tx) => {
          for (const derivation of pending) {
            derive(tx, derivation);
            this.unmark(tx, derivation);
          }
        },
        { durable: false },
      );
    } catch (error) {
      rolledBack();
      this.pending = [...pending, ...(this.pending ?? [])];
      throw error;
    } finally {
      this.settling = false;
    }
  }

  /**
   * At the start of an outermost write, before it settles: a remember in it may defer its derived
   * rows when it shares a group fdatasync (`grouped`: they are written while the disk syncs), or
   * when the caller left the thread idle for a turn before it (the next gap is likely idle too).
   */
  writeStarting(grouped: boolean): void {
    this.deferNow = grouped || this.idleTurn;
    this.idleTurn = false;
  }

  /** The outermost write ended (committed or not): watch for the next turn of the event loop. */
  writeEnded(): void {
    if (this.watchingTurn) return;
    this.watchingTurn = true;
    setImmediate(() => {
      this.watchingTurn = false;
      this.idleTurn = true;
    });
  }

  /** True when the write running now may leave its derived rows to the next transaction. */
  get deferrable(): boolean {
    return this.deferNow;
  }

  /** In the transaction writing the memory: marks it as waiting for its derived rows. */
  mark(tx: SqlWriter, derivation: Derivation): void {
    tx.run('INSERT INTO engram_meta (key, value) VALUES (?, ?)', [
      MARKER + derivation.id,
      `${derivation.doc} ${derivation.at}`,
    ]);
    this.staged.push(derivation);
  }

  private unmark(tx: SqlWriter, derivation: Derivation): void {
    tx.run('DELETE FROM engram_meta WHERE key = ?', [MARKER + derivation.id]);
  }

  /** The outermost transaction committed: its marked memories are pending, derived soon. */
  committed(): void {
    if (this.staged.length === 0) return;
    // Not yet loaded: the markers just committed are read with the older ones.
    if (this.pending) this.pending.push(...this.staged);
    this.staged = [];
    setImmediate(() => {
      try {
        this.settleSoon();
      } catch {
        // Closed meanwhile (the markers stay for the next open), or failing: the next read or
        // write settles again and its caller gets the error.
      }
    });
  }

  rolledBack(): void {
    this.staged = [];
  }

  /** The pending derivations, oldest first, taken off the list. */
  private take(reader: SqlReader): Derivation[] {
    const pending = (this.pending ??= markedIn(reader));
    if (pending.length === 0) return pending;
    this.pending = [];
    return pending;
  }

  /** True when nothing waits (known without a read: markers not loaded yet count as waiting). */
  get settled(): boolean {
    return this.pending !== undefined && this.pending.length === 0;
  }
}

/** The markers left in the store, in the order their memories were written (document numbers). */
function markedIn(reader: SqlReader): Derivation[] {
  return reader
    .all<{ key: string; value: string }>("SELECT key, value FROM engram_meta WHERE key LIKE 'derive:%'")
    .map(({ key, value }) => {
      const [doc, at] = value.split(' ').map(Number);
      return { id: key.slice(MARKER.length), doc: doc!, at: at! };
    })
    .sort((a, b) => a.doc - b.doc);
}
