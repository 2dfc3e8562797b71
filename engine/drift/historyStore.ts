import { createHash } from 'node:crypto';
import type { SqlReader, SqlWriter } from '../store/sqlAccess';

/**
 * Part of every key: bump it when what a stored answer means changes (how a grep match is read,
 * what a file reader returns), so answers of an older Engram are never read as new ones. 2: a
 * reader's Set (markdown sections) is stored through its codec; 1 stored it as `{}`.
 */
const ANSWERS_FORMAT = 2;
/**
 * At most this many answers are kept, the least recently used dropped first. Answers keyed by
 * commits never go stale, but most are never asked again (a memory rewritten, a claim gone); the
 * whole table is read at the start of every check, so it must stay small enough to read quickly.
 */
export const MAX_HISTORY_ANSWERS = 20_000;
/** A row's last use is written again only when older than this: a re-check then writes nothing. */
const USE_GRANULARITY_MS = 60 * 60 * 1000;
/** Keys per `IN (...)` list, far below SQLite's limit on bound parameters. */
const CHUNK = 500;

/** How an answer is turned into JSON and back (Maps and Sets are not JSON). */
export interface AnswerCodec<V> {
  encode(value: V): unknown;
  decode(json: unknown): V;
}

interface StoredRow {
  head: string | null;
  /** Undefined until asked for when the rows were read without their answers (see `read`). */
  answer?: string;
  /** Likewise: a row never looked up is not marked used again by this check. */
  usedAt?: number;
}

/** A later read of the database (MemoryStore.read): valid after the check's first read has ended. */
export type ReadLater = <T>(fn: (reader: SqlReader) => T) => T;

/**
 * The drift check's history answers as stored in `drift_history`, for one check: all read at its
 * start (one read), the new ones written at its end (in the check's write transaction). A question
 * whose inputs are commit hashes (a grep at a commit, a file read at a commit) is stored without a
 * HEAD and stays valid forever; one that depends on HEAD (a walk to HEAD, HEAD's timeline) carries
 * HEAD in its key and its row, and rows of a HEAD that is no longer current are dropped on write:
 * they could only be asked again if HEAD came back, and each such answer covers a whole history.
 */
export class StoredHistory {
  private readonly used = new Set<string>();
  private readonly pending: Array<Promise<unknown>> = [];
  private readonly fresh = new Map<string, { head: string | null; answer: string }>();

  private constructor(
    private readonly root: string,
    private readonly rows: Map<string, StoredRow>,
    private readonly readLater?: ReadLater,
  ) {}

  /** Nothing stored yet (a search outside a check, a test). */
  static empty(root: string): StoredHistory {
    return new StoredHistory(root, new Map());
  }

  /**
   * Every stored answer (the reader is only valid inside its read: call it before any await).
   * With `readLater`, only the keys are read now and each answer when it is looked up: answers
   * about HEAD's whole history are MBs (every version of package.json, the commit timeline), and
   * a re-check that asks a few of them read and decoded them all (~0.1 s of a CLI re-check).
   */
  static read(reader: SqlReader, root: string, readLater?: ReadLater): StoredHistory {
    const rows = new Map<string, StoredRow>();
    // Not used_at either: SQLite stores it after the answer, so reading it walks the answer's pages.
    if (readLater)
      for (const row of reader.all<{ key: string; head: string | null }>(
        'SELECT key, head FROM drift_history',
      ))
        rows.set(row.key, { head: row.head });
    else
      for (const row of reader.all<{ key: string; head: string | null; answer: string; used_at: number }>(
        'SELECT key, head, answer, used_at FROM drift_history',
      ))
        rows.set(row.key, { head: row.head, answer: row.answer, usedAt: row.used_at });
    return new StoredHistory(root, rows, readLater);
  }

  /** Stored answers this check has read or found: for tests and the bench. */
  get counts(): { stored: number; used: number; fresh: number } {
    return { stored: this.rows.size, used: this.used.size, fresh: this.fresh.size };
  }

  /** Whether an answer to `question` is stored (without reading it). */
  has(question: string, head: string | null): boolean {
    return this.rows.has(this.keyOf(question, head));
  }

  /** The stored answer to `question` (asked at `head` when it depends on HEAD), marked as used. */
  lookup<V>(question: string, head: string | null, codec?: AnswerCodec<V>): { value: V } | undefined {
    const key = this.keyOf(question, head);
    const row = this.rows.get(key);
    if (!row) return undefined;
    let answer = row.answer;
    if (answer === undefined) {
      const stored = this.readLater?.((reader) =>
        reader.get<{ answer: string; used_at: number }>(
          'SELECT answer, used_at FROM drift_history WHERE key = ?',
          [key],
        ),
      );
      answer = stored?.answer;
      if (stored) row.usedAt = stored.used_at;
    }
    if (answer === undefined) {
      // Gone since the keys were read (another check dropped it): asked of git again, stored anew.
      this.rows.delete(key);
      return undefined;
    }
    this.used.add(key);
    const json = (JSON.parse(answer) as { v?: unknown }).v;
    return { value: codec ? codec.decode(json) : (json as V) };
  }

  /** An answer this check knows (from git or from this process): stored at the end if it is new. */
  keep<V>(question: string, head: string | null, answer: Promise<V>, codec?: AnswerCodec<V>): void {
    const key = this.keyOf(question, head);
    if (this.rows.has(key)) {
      this.used.add(key);
      return;
    }
    if (this.fresh.has(key)) return;
    // A failed question (git busy, an object missing) is asked again next time, never stored.
    this.pending.push(
      answer.then(
        (value) => {
          const v = codec ? codec.encode(value) : value;
          this.fresh.set(key, { head, answer: JSON.stringify({ v }) });
        },
        () => undefined,
      ),
    );
  }

  /** Waits for the answers still being computed, so `save` can write them. */
  async settled(): Promise<void> {
    while (this.pending.length > 0) await Promise.all(this.pending.splice(0));
  }

  /**
   * Writes the new answers, marks the used ones, drops answers of other HEADs and the least
   * recently used past the bound. Call inside the check's write, after `settled`.
   */
  save(tx: SqlWriter, head: string, now: number, limit = MAX_HISTORY_ANSWERS): void {
    if (this.fresh.size === 0 && !this.staleUse(now) && !this.otherHeads(head)) return;
    tx.run('DELETE FROM drift_history WHERE head IS NOT NULL AND head <> ?', [head]);
    for (const [key, row] of this.fresh)
      tx.run('INSERT OR REPLACE INTO drift_history (key, head, answer, used_at) VALUES (?, ?, ?, ?)', [
        key,
        row.head,
        row.answer,
        now,
      ]);
    const touched = [...this.used].filter(
      (key) => now - (this.rows.get(key)?.usedAt ?? now) >= USE_GRANULARITY_MS,
    );
    for (let i = 0; i < touched.length; i += CHUNK) {
      const chunk = touched.slice(i, i + CHUNK);
      tx.run(`UPDATE drift_history SET used_at = ? WHERE key IN (${chunk.map(() => '?').join(',')})`, [
        now,
        ...chunk,
      ]);
    }
    const count = tx.value<number>('SELECT COUNT(*) FROM drift_history') ?? 0;
    if (count > limit)
      tx.run(
        'DELETE FROM drift_history WHERE key IN (SELECT key FROM drift_history ORDER BY used_at DESC, key LIMIT -1 OFFSET ?)',
        [limit],
      );
    this.fresh.clear();
  }

  private staleUse(now: number): boolean {
    for (const key of this.used)
      if (now - (this.rows.get(key)?.usedAt ?? now) >= USE_GRANULARITY_MS) return true;
    return false;
  }

  private otherHeads(head: string): boolean {
    for (const row of this.rows.values()) if (row.head !== null && row.head !== head) return true;
    return false;
  }

  /**
   * Hex, not base64url: every text a write binds passes the secret scanner (writePolicy.ts), and a
   * base64url digest is sometimes shaped as a service key (`doLg_<38 drawn characters>`), so its
   * stored key was redacted and the answer never found again.
   */
  private keyOf(question: string, head: string | null): string {
    return createHash('sha256')
      .update(`${ANSWERS_FORMAT}\u0000${this.root}\u0000${head ?? ''}\u0000${question}`)
      .digest('hex');
  }
}
