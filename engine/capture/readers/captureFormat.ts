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
  /**
   * One record's events. `json` is `JSON.parse(text)` when the caller has it already (ingest parses
   * each record once to redact it); a reader that parses its records may use it instead.
   */
  parse(text: string, state: ReaderState, json?: unknown): ParsedRecord;
  /**
   * How the agent rewrites its file, when it does not only append: `whole` (a JSON document
   * written anew on each change: read again from its start whenever it changed) or `compacted`
   * (a log now and then written anew, shorter). A file read again keeps the reader's state, so
   * the reader takes nothing twice; the ledger skips the records it has. @default appended only
   */
  rewrite?: 'whole' | 'compacted';
  /** The format of one file, when an agent keeps two kinds side by side (Copilot's .json and .jsonl). */
  variant?(file: string): CaptureFormat;
}

/** The format that reads `file` of `format`'s agent. */
export function formatOf(format: CaptureFormat, file: string): CaptureFormat {
  return format.variant?.(file) ?? format;
}

/** Every record of a whole file at once, for tests and the benchmark. */
export function readAll(
  format: CaptureFormat,
  bytes: Uint8Array,
  file = 'session.jsonl',
): { records: Array<ParsedRecord & { offset: number }>; consumed: number } {
  const reader = formatOf(format, file);
  const state = reader.initialState(file);
  const { records, consumed } = reader.split(bytes, 0);
  return { records: records.map((r) => ({ offset: r.offset, ...reader.parse(r.text, state) })), consumed };
}
