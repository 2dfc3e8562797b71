import { statSync } from 'node:fs';

/**
 * How large a journal a process leaves behind when it closes, given its snapshot's size.
 *
 * Every open replays the journal since the last snapshot, and every one-shot CLI command opens:
 * a recall appends ~250 bytes of read events, so with a fixed 1 MiB threshold the 4,000th recall
 * in a row replayed ~1 MiB first (at 10k memories replay runs ~0.45 ms per KiB: 59 KiB took 27 ms
 * of a 0.3 s recall). Snapshotting on close costs a write of the whole database (~8.5 ms per MB).
 * Snapshotting once the journal reaches J bytes costs, per command, J/2 of replay on average plus
 * the snapshot spread over J/250 commands; that sum is smallest at J = sqrt(2 * snapshot cost *
 * 250 / replay cost per byte), about 3 * sqrt(database bytes). Bounded below so small databases do
 * not snapshot on nearly every close (a new database's schema alone is ~18 KiB of journal), and
 * above by the old fixed threshold.
 */
const MIN_CLOSE_JOURNAL_BYTES = 32 * 1024;
const MAX_CLOSE_JOURNAL_BYTES = 1024 * 1024;

/** The close threshold a policy asks for: a number as given, `by-size` from the snapshot file. */
export function closeJournalBytes(setting: number | 'by-size', snapshotPath: string): number {
  if (setting !== 'by-size') return setting;
  let snapshotBytes = 0;
  try {
    snapshotBytes = statSync(snapshotPath).size;
  } catch {
    // No snapshot file yet: the smallest threshold.
  }
  return closeJournalThreshold(snapshotBytes);
}

export function closeJournalThreshold(snapshotBytes: number): number {
  const balanced = 3 * Math.sqrt(Math.max(0, snapshotBytes));
  return Math.round(Math.min(MAX_CLOSE_JOURNAL_BYTES, Math.max(MIN_CLOSE_JOURNAL_BYTES, balanced)));
}
