import type { Database, Statement } from 'sql.js';
import { EngramError } from '../errors';
import type { TransactionRecord } from './statementLog';

/**
 * Applies journal records after `snapshotSeq` to a database loaded from the snapshot at that seq,
 * each in its own transaction with the seq recorded, and returns the last seq applied. A gap in the
 * sequence is corruption, never skipped. Opening a store and the checkpoint worker both replay.
 */
export function replayRecords(
  db: Database,
  records: TransactionRecord[],
  snapshotSeq: number,
  journalPath: string,
  /** Called after each record's COMMIT (the store keeps room ahead of its growing file). */
  afterEach?: () => void,
): number {
  let seq = snapshotSeq;
  const pending = records.filter((record) => record.seq > snapshotSeq);
  const first = pending[0];
  if (first && first.seq !== snapshotSeq + 1) {
    throw new EngramError(
      'CORRUPT',
      `journal ${journalPath} starts at transaction ${first.seq} but the snapshot ends at ${snapshotSeq}`,
    );
  }
  // Records repeat a few statements (a recall's read events, a remember's rows): each is
  // compiled once for the whole replay instead of once per use.
  const statements = new StatementCache(db);
  try {
    for (const record of pending) {
      if (record.seq !== seq + 1) {
        throw new EngramError(
          'CORRUPT',
          `journal ${journalPath} skips from transaction ${seq} to ${record.seq}`,
        );
      }
      applyRecord(db, record, statements);
      seq = record.seq;
      afterEach?.();
    }
  } finally {
    statements.free();
  }
  return seq;
}

/** Prepared statements by their text, freed together. */
class StatementCache {
  private readonly prepared = new Map<string, Statement>();

  constructor(private readonly db: Database) {}

  run(sql: string, params: NonNullable<TransactionRecord['statements'][number][1]>): void {
    let statement = this.prepared.get(sql);
    if (!statement) this.prepared.set(sql, (statement = this.db.prepare(sql)));
    statement.run(params);
  }

  free(): void {
    for (const statement of this.prepared.values()) statement.free();
    this.prepared.clear();
  }
}

/** Applies one record in its own transaction, recording its seq; a failure leaves nothing applied. */
export function applyRecord(db: Database, record: TransactionRecord, statements?: StatementCache): void {
  db.exec('BEGIN');
  try {
    for (const [sql, params] of record.statements) {
      if (params === undefined) db.exec(sql);
      else if (statements) statements.run(sql, params);
      else db.run(sql, params);
    }
    db.run("UPDATE engram_meta SET value = ? WHERE key = 'journal_seq'", [String(record.seq)]);
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw new EngramError('CORRUPT', `replaying transaction ${record.seq} failed: ${firstLine(error)}`);
  }
}

function firstLine(error: unknown): string {
  return String(error instanceof Error ? error.message : error).split('\n')[0] ?? '';
}
