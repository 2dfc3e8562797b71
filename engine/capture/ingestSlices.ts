/**
 * How long one ingest transaction may hold the thread, preparing (redacting, parsing) and writing
 * its records together: a host's main thread (VS Code's extension host) must answer within 50 ms.
 */
export const SLICE_MS = 15;

/**
 * The first transaction has no measured write cost yet: it takes this many records at most. The
 * write of a record (its row, its derived rows, the store's own redaction pass, the commit) costs
 * two to four times its preparing, and a first guess that is too high blocks once for 100 ms.
 */
const FIRST_BATCH_RECORDS = 32;

/**
 * A batch takes at least this many records. A transaction has a fixed cost (the commit) that a
 * small batch spreads over few records, and a preempted write (a busy machine) looks costly for
 * once: without a floor, either would shrink the batches to a record or two for the rest of the
 * file (measured: 9,900 event-loop turns for 5,000 records, and 9% more CPU).
 */
const MIN_BATCH_RECORDS = 8;

/** Weight of the last transaction in the learnt cost: one slow write moves it halfway. */
const LEARNING = 0.5;

/**
 * Sizes ingest transactions so that preparing and writing a batch stays within one slice. The
 * write's cost per record is learnt from the transactions so far (the last one weighs half: a
 * commit that had to grow the database's buffer makes the next batches smaller for a while), so a
 * slow machine or a large database gets smaller transactions rather than longer blocks.
 */
export class IngestSlices {
  private writeMsPerRecord: number | undefined;

  constructor(
    private readonly clock: () => number,
    private readonly sliceMs = SLICE_MS,
  ) {}

  /** When this batch's preparing began. */
  start(): number {
    return this.clock();
  }

  /** Whether one more record may join a batch that began at `startedAt` with `prepared` records. */
  fits(startedAt: number, prepared: number): boolean {
    if (prepared < MIN_BATCH_RECORDS) return true;
    if (this.writeMsPerRecord === undefined) return prepared < FIRST_BATCH_RECORDS;
    const preparing = this.clock() - startedAt;
    const perRecord = preparing / prepared + this.writeMsPerRecord;
    return preparing + prepared * this.writeMsPerRecord + perRecord <= this.sliceMs;
  }

  /** Writes `records` with `write`, learning what a record's write costs. */
  write<T>(records: number, write: () => T): T {
    const started = this.clock();
    const result = write();
    if (records > 0) {
      const last = (this.clock() - started) / records;
      this.writeMsPerRecord =
        this.writeMsPerRecord === undefined
          ? last
          : this.writeMsPerRecord + LEARNING * (last - this.writeMsPerRecord);
    }
    return result;
  }
}
