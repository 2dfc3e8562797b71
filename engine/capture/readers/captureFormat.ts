import type { CaptureAgent, ParsedRecord } from '../events';
import type { SplitResult } from '../rawRecords';
import type { ReaderState } from './readerState';

/**
 * One agent's session format: how its file splits into records, and what each record says.
 * `parse` is pure but for `state` (which it updates) and never throws: a record it cannot use is
 * counted as unknown or malformed.
 */
export interface CaptureFormat {
  agent: CaptureAgent;
  split(bytes: Uint8Array, base: number): SplitResult;
  /** The state a file starts with; `file` is its path (some formats name the session in it). */
  initialState(file: string): ReaderState;
  parse(text: string, state: ReaderState): ParsedRecord;
}

/** Every record of a whole file at once, for tests and the benchmark. */
export function readAll(
  format: CaptureFormat,
  bytes: Uint8Array,
  file = 'session.jsonl',
): { records: Array<ParsedRecord & { offset: number }>; consumed: number } {
  const state = format.initialState(file);
  const { records, consumed } = format.split(bytes, 0);
  return { records: records.map((r) => ({ offset: r.offset, ...format.parse(r.text, state) })), consumed };
}
