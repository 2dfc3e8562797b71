/** One record of a session file: its bytes [offset, end) and their text. */
export interface RawRecord {
  offset: number;
  end: number;
  text: string;
}

export interface SplitResult {
  records: RawRecord[];
  /** Where the next read starts: the end of the last complete record (a cut tail waits for more). */
  consumed: number;
}

const NEWLINE = 0x0a;

/**
 * The complete lines of `bytes`, which start at byte `base` of their file: a line counts once its newline is written, so a
 * line an agent is still appending (or a file cut mid-line) is left for the next read. Offsets
 * are in bytes, so a record's place in the file survives any text encoding. Blank lines are
 * skipped but consumed.
 */
export function splitLines(bytes: Uint8Array, base = 0): SplitResult {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const records: RawRecord[] = [];
  let start = 0;
  for (let nl = buffer.indexOf(NEWLINE, start); nl !== -1; nl = buffer.indexOf(NEWLINE, start)) {
    const text = buffer.toString('utf8', start, nl).replace(/\r$/, '');
    if (text.trim() !== '') records.push({ offset: base + start, end: base + nl + 1, text });
    start = nl + 1;
  }
  return { records, consumed: base + start };
}
