import { mapStrings } from './jsonLeaves';
import { redactSecrets } from './secrets';

/**
 * Texts found clean, in two generations: a write binds the same texts again and again (a memory's
 * content in its row and its index row, layers, kinds, scopes, tag lists, a request record's
 * outcomes), and capture redacts a session's texts before the store's write policy sees them
 * (40-50% of a capture write was that second scan). A text found clean is not scanned again while
 * it is recent. Only clean texts are kept, so the cache never holds a secret; it holds the same
 * strings its callers hold, and a generation is dropped once it reaches its weight.
 */
class CleanTexts {
  private current = new Set<string>();
  private previous = new Set<string>();
  private weight = 0;

  constructor(
    private readonly generationWeight: number,
    private readonly weightOf: (text: string) => number,
  ) {}

  has(text: string): boolean {
    return this.current.has(text) || this.previous.has(text);
  }

  add(text: string): void {
    const weight = this.weightOf(text);
    if (weight > this.generationWeight) return;
    if (this.weight + weight > this.generationWeight) {
      this.previous = this.current;
      this.current = new Set();
      this.weight = 0;
    }
    this.current.add(text);
    this.weight += weight;
  }

  clear(): void {
    this.current = new Set();
    this.previous = new Set();
    this.weight = 0;
  }
}

/** Texts up to this length are counted by number, longer ones by characters. */
const SHORT_LENGTH = 512;
/** 2,048 short texts and 1M characters of long ones per generation: at most ~4 MB of text each. */
const shortTexts = new CleanTexts(2048, () => 1);
const longTexts = new CleanTexts(1_000_000, (text) => text.length);
let longScans = 0;

/**
 * A text as the store may keep it: without the secrets redactSecrets recognises. JSON (tags,
 * sources, ledger data, request records) stays JSON: it is redacted whole (which sees
 * `"password": "..."` with its key) only where that leaves it parseable, and then leaf by leaf,
 * keys included (which sees a secret behind an escape: `\n` in a key block, `\"` around a value).
 */
export function storedText(text: string): string {
  const long = text.length > SHORT_LENGTH;
  const clean = long ? longTexts : shortTexts;
  if (clean.has(text)) return text;
  if (long) longScans++;
  const stored = redactedText(text);
  if (stored === text) clean.add(text);
  return stored;
}

/** Forgets every text found clean, as a new process starts (benchmarks measure cold writes). */
export function forgetCleanTexts(): void {
  shortTexts.clear();
  longTexts.clear();
}

/** Long texts scanned for secrets so far (for tests: a clean one written again is not scanned). */
export function longTextScans(): number {
  return longScans;
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
