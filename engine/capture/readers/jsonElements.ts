import type { RawRecord, SplitResult } from '../rawRecords';

/**
 * Records of a JSON document that an agent rewrites whole (Cline's `ui_messages.json`, VS Code's
 * older `chatSessions/*.json`): each element of one array (the document itself, or the array
 * under `key` of the top-level object) is a record with its own byte range. A rewrite that appends
 * or changes only the last elements leaves the earlier ones at the same offsets with the same
 * bytes, so the ledger (keyed by offset and content hash) skips them.
 *
 * With `key`, what lies before the array becomes a first record (its text closed as `...[]}`, so
 * it is JSON) and what lies after it a last one (`{` + the fields after the array). `base > 0`
 * continues inside the array, after an element: where the previous split of a long file stopped.
 * Bytes are scanned, not characters: every structural character of JSON is ASCII, and no byte of
 * a multi-byte UTF-8 character is.
 */
export function splitJsonArray(key?: string): (bytes: Uint8Array, base: number) => SplitResult {
  return (bytes, base) => {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const records: RawRecord[] = [];
    const record = (start: number, end: number, text = buffer.toString('utf8', start, end)) =>
      records.push({ offset: base + start, end: base + end, text });
    let i = 0;
    if (base === 0) {
      const open = arrayStart(buffer, key);
      if (open === undefined) return { records, consumed: 0 };
      if (key !== undefined) record(0, open + 1, `${buffer.toString('utf8', 0, open + 1)}]}`);
      i = open + 1;
    }
    let consumed = base + i;
    for (;;) {
      i = skipSpace(buffer, i);
      if (i >= buffer.length) return { records, consumed };
      const c = buffer[i];
      if (c === COMMA) {
        i++;
        continue;
      }
      if (c === CLOSE_ARRAY) break;
      const end = valueEnd(buffer, i);
      if (end === undefined) return { records, consumed }; // cut mid-element: wait for the rest
      record(i, end);
      i = end;
      consumed = base + end;
    }
    // The array is closed: the rest of the document, once it is all there.
    const close = i;
    if (key === undefined) return { records, consumed: base + buffer.length };
    const rest = buffer.toString('utf8', close + 1).trim();
    if (!rest.endsWith('}')) return { records, consumed };
    record(close, buffer.length, `{${rest.replace(/^,/, '')}`);
    return { records, consumed: base + buffer.length };
  };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

function skipSpace(b: Buffer, i: number): number {
  while (i < b.length && (b[i] === 0x20 || b[i] === 0x0a || b[i] === 0x0d || b[i] === 0x09)) i++;
  return i;
}

/** Where the array to split opens: the document's first byte, or the value of `key` at the top level. */
function arrayStart(b: Buffer, key: string | undefined): number | undefined {
  let i = skipSpace(b, b[0] === 0xef ? 3 : 0); // a byte-order mark
  if (key === undefined) return b[i] === OPEN_ARRAY ? i : undefined;
  if (b[i] !== OPEN_OBJECT) return undefined;
  i++;
  for (;;) {
    i = skipSpace(b, i);
    if (b[i] === COMMA) i = skipSpace(b, i + 1);
    if (b[i] !== QUOTE) return undefined;
    const nameEnd = valueEnd(b, i);
    if (nameEnd === undefined) return undefined;
    const name = b.toString('utf8', i + 1, nameEnd - 1);
    i = skipSpace(b, nameEnd);
    if (b[i] !== COLON) return undefined;
    i = skipSpace(b, i + 1);
    if (name === key) return b[i] === OPEN_ARRAY ? i : undefined;
    const end = valueEnd(b, i);
    if (end === undefined) return undefined;
    i = end;
  }
}

/** The end (exclusive) of the JSON value starting at `i`, or undefined when the bytes stop first. */
function valueEnd(b: Buffer, i: number): number | undefined {
  let depth = 0;
  for (let j = i; j < b.length; j++) {
    const c = b[j];
    if (c === QUOTE) {
      j = stringEnd(b, j);
      if (j === -1) return undefined;
      if (depth === 0) return j + 1;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) depth++;
    else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
      if (depth === 0) return j + 1;
      if (depth < 0) return j; // a bare value ended by its container
    } else if (depth === 0 && (c === COMMA || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09)) {
      return j; // a number, true, false or null
    }
  }
  return undefined;
}

/** The index of the quote closing the string that opens at `i`, or -1. */
function stringEnd(b: Buffer, i: number): number {
  for (let j = i + 1; j < b.length; j++) {
    if (b[j] === BACKSLASH) j++;
    else if (b[j] === QUOTE) return j;
  }
  return -1;
}
