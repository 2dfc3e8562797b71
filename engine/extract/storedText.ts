import { mapStrings } from './jsonLeaves';
import type { ScanScope } from './secretCandidate';
import { mayHoldProviderToken } from './secretPatterns';
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
 * Texts a caller has just had back unchanged from storedText, for the span of one write
 * (whileFoundClean): capture prepares a batch's records, then writes them, and a batch's records
 * (a tool's output can be megabytes) may outweigh both generations above before they are written.
 */
const foundClean = new Set<string>();

/**
 * A text as the store may keep it: without the secrets redactSecrets recognises. JSON (tags,
 * sources, ledger data, request records) stays JSON: it is redacted whole (which sees
 * `"password": "..."` with its key) only where that leaves it parseable, and then leaf by leaf,
 * keys included (which sees a secret behind an escape: `\n` in a key block, `\"` around a value).
 */
export function storedText(text: string): string {
  return storedJsonText(text).text;
}

/** A text and, when it is JSON and known without parsing it again, its value. */
export interface ParsedText {
  text: string;
  /** `JSON.parse(text)`, when the caller had it; undefined when unknown (or not JSON). */
  value?: unknown;
}

/**
 * storedText for a caller that may have parsed the text already (`value`: `JSON.parse(text)`), as
 * capture has: the text is not parsed again, and the value of the result comes back when it is
 * the same text (a redacted JSON text is serialised anew; its value is left to a new parse, which
 * is what it would give exactly).
 */
export function storedJsonText(text: string, value?: unknown): ParsedText {
  return scopedText(text, value, NOTHING_KNOWN);
}

const NOTHING_KNOWN: ScanScope = {};
const NO_PROVIDER_HINTS: ScanScope = { providerHints: false };

/** storedJsonText of a text `scope` is true of (a string of a JSON text scanned before it). */
function scopedText(text: string, value: unknown, scope: ScanScope): ParsedText {
  const long = text.length > SHORT_LENGTH;
  const clean = long ? longTexts : shortTexts;
  if (clean.has(text) || foundClean.has(text)) return { text, value };
  if (long) longScans++;
  // The scope only spares gates (the result is the same), so a text found clean is clean.
  const stored = redactedText(text, value, scope);
  if (stored.text === text) clean.add(text);
  return stored;
}

/**
 * Runs `fn` (a write) with `texts` taken as clean: each must be a text storedText returned as it
 * was given, so scanning it again would return it again. Forgotten when `fn` returns.
 */
export function whileFoundClean<T>(texts: readonly string[], fn: () => T): T {
  for (const text of texts) foundClean.add(text);
  try {
    return fn();
  } finally {
    foundClean.clear();
  }
}

/**
 * Records that `redactSecrets(text)` found nothing in `text`, for a caller that scanned it already
 * (remember scans a memory's content before it hashes it): the write policy then does not scan it
 * a second time when the row binding it is written. A text that may be JSON is left out, since
 * storedText scans those leaf by leaf as well.
 */
export function noteScannedClean(text: string): void {
  const first = text.charCodeAt(0);
  if (first === 0x5b || first === 0x7b) return;
  (text.length > SHORT_LENGTH ? longTexts : shortTexts).add(text);
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

function redactedText(text: string, known: unknown, scope: ScanScope): ParsedText {
  const first = text.charCodeAt(0); // '[' or '{': maybe JSON
  if (first === 0x5b || first === 0x7b) {
    const parsed = known === undefined ? parseJson(text) : { value: known };
    if (parsed !== undefined) return storedJson(text, parsed.value, scope);
  }
  return { text: redactSecrets(text, scope).text };
}

function storedJson(text: string, value: unknown, scope: ScanScope): ParsedText {
  let base = text;
  let parsed = value;
  const providerHints = scope.providerHints ?? mayHoldProviderToken(text);
  const whole = redactSecrets(text, { ...scope, providerHints });
  if (whole.redactions.length > 0) {
    const reparsed = parseJson(whole.text);
    if (reparsed !== undefined) {
      base = whole.text;
      parsed = reparsed.value;
    }
  }
  // A provider token's hint is letters, digits and `_.=-` (secretPatterns.ts): in a string of
  // this JSON it would be in its text too, unless a `\u` escape wrote it. The strings of a text
  // without one (left as it was: the strings are the text's own) skip that gate: 8% of a record's
  // redaction on real transcripts (entireio/cli, results compared equal on 6,015 records).
  const leafScope =
    providerHints || whole.redactions.length > 0 || text.includes('\\u') ? NOTHING_KNOWN : NO_PROVIDER_HINTS;
  const leaves = mapStrings(parsed, (leaf) => scopedText(leaf, undefined, leafScope).text);
  return leaves === parsed ? { text: base, value: parsed } : { text: JSON.stringify(leaves) };
}

function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}
