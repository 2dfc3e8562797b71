import { mapStrings } from './jsonLeaves';
import { redactSecrets } from './secrets';

/** Texts up to this length are remembered once found clean. */
const CACHED_LENGTH = 512;
/** Clean texts per generation; the cache holds two generations (at most ~4 MB of text). */
const GENERATION = 2048;
/**
 * Longer clean texts, by characters per generation (two generations: at most ~4 MB). Capture
 * redacts a session's texts and then writes them, and the store's write policy scanned each again:
 * 40-50% of a capture write. The set holds the same strings the caller holds, so while a write is
 * under way it costs almost nothing; a generation is dropped when it is full.
 */
const LONG_GENERATION_CHARS = 1_000_000;
/**
 * A write binds the same texts again and again (a memory's content in its row and its index row,
 * layers, kinds, scopes, tag lists, the outcomes in a request record): a text found clean is not
 * scanned again while it is recent. Only clean texts are kept, so the cache never holds a secret.
 */
let current = new Set<string>();
let previous = new Set<string>();

/**
 * A text as the store may keep it: without the secrets redactSecrets recognises. JSON (tags,
 * sources, ledger data, request records) stays JSON: it is redacted whole (which sees
 * `"password": "..."` with its key) only where that leaves it parseable, and then leaf by leaf,
 * keys included (which sees a secret behind an escape: `\n` in a key block, `\"` around a value).
 */
export function storedText(text: string): string {
  if (text.length > CACHED_LENGTH) return storedLongText(text);
  if (current.has(text) || previous.has(text)) return text;
  const stored = redactedText(text);
  if (stored === text) {
    if (current.size >= GENERATION) {
      previous = current;
      current = new Set();
    }
    current.add(text);
  }
  return stored;
}

let longCurrent = new Set<string>();
let longPrevious = new Set<string>();
let longChars = 0;
let longScans = 0;

/** Forgets every text found clean, as a new process starts (benchmarks measure cold writes). */
export function forgetCleanTexts(): void {
  current = new Set();
  previous = new Set();
  longCurrent = new Set();
  longPrevious = new Set();
  longChars = 0;
}

/** Long texts scanned for secrets so far (for tests: a clean one written again is not scanned). */
export function longTextScans(): number {
  return longScans;
}

function storedLongText(text: string): string {
  if (longCurrent.has(text) || longPrevious.has(text)) return text;
  longScans++;
  const stored = redactedText(text);
  if (stored === text && text.length <= LONG_GENERATION_CHARS) {
    if (longChars + text.length > LONG_GENERATION_CHARS) {
      longPrevious = longCurrent;
      longCurrent = new Set();
      longChars = 0;
    }
    longCurrent.add(text);
    longChars += text.length;
  }
  return stored;
}

function redactedText(text: string): string {
  const first = text.charCodeAt(0); // '[' or '{': maybe JSON
  if (first === 0x5b || first === 0x7b) {
    const parsed = parseJson(text);
    if (parsed !== undefined) return storedJson(text, parsed.value);
  }
  return redactSecrets(text).text;
}

function storedJson(text: string, value: unknown): string {
  let base = text;
  let parsed = value;
  const whole = redactSecrets(text);
  if (whole.redactions.length > 0) {
    const reparsed = parseJson(whole.text);
    if (reparsed !== undefined) {
      base = whole.text;
      parsed = reparsed.value;
    }
  }
  const leaves = mapStrings(parsed, storedText);
  return leaves === parsed ? base : JSON.stringify(leaves);
}

function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}
