import { EngramError } from '../errors';
import { detectLowerCasedPrivateKeys, detectPrivateKeys } from './privateKeyBlocks';
import { detectAssignments } from './secretAssignments';
import type { ScanScope, SecretCandidate, SecretDetector } from './secretCandidate';
import { detectLowerCasedTokens, detectProviderTokens, detectTokens } from './secretPatterns';

export interface Redaction {
  /** What was redacted: `aws-access-key`, `github-token`, `jwt`, `private-key`, `password` ... */
  kind: string;
  /** [start, end) of the secret in the ORIGINAL text. */
  start: number;
  end: number;
}

export interface RedactionResult {
  /** The text with each secret replaced by `[REDACTED:<kind>]`. */
  text: string;
  /** One entry per replaced secret, in text order. */
  redactions: Redaction[];
}

/**
 * Shapes that need an upper-case letter (`AKIA...`, `eyJ...`, `-----BEGIN ... PRIVATE KEY-----`),
 * in text that has none because it was lower-cased before it came here: tags, entity keys.
 */
const detectLowerCased: SecretDetector = (text, out) => {
  if (/[A-Z]/.test(text)) return;
  detectLowerCasedPrivateKeys(text, out);
  detectLowerCasedTokens(text, out);
};

/**
 * In priority order: when two detectors claim overlapping text, the earlier one wins, so a key
 * block beats anything inside it and a recognised token shape names its kind before the generic
 * `password=`/`token:` rule sees the same value.
 */
const DETECTORS: readonly SecretDetector[] = [
  detectPrivateKeys,
  detectTokens,
  detectProviderTokens,
  detectLowerCased,
  detectAssignments,
];

/**
 * Replaces secrets (API keys, tokens, private keys, credentials in assignments and connection
 * strings) with `[REDACTED:<kind>]`. Pure and linear in the length of the text. Redacting an
 * already redacted text changes nothing. `scope` is what the caller knows of the text (it must be
 * true of it): it spares gates, never changes the result.
 */
export function redactSecrets(text: string, scope?: ScanScope): RedactionResult {
  if (typeof text !== 'string') {
    throw new EngramError('INVALID_INPUT', `redactSecrets expects a string, got ${typeof text}`);
  }
  const candidates: SecretCandidate[] = [];
  for (const detect of DETECTORS) detect(text, candidates, scope);
  if (candidates.length === 0) return { text, redactions: [] };

  const taken = new Uint8Array(text.length);
  const redactions: Redaction[] = [];
  for (const { kind, start, end } of candidates) {
    if (end <= start || taken.subarray(start, end).some((t) => t === 1)) continue;
    taken.fill(1, start, end);
    redactions.push({ kind, start, end });
  }
  redactions.sort((a, b) => a.start - b.start);

  const parts: string[] = [];
  let last = 0;
  for (const { kind, start, end } of redactions) {
    parts.push(text.slice(last, start), `[REDACTED:${kind}]`);
    last = end;
  }
  parts.push(text.slice(last));
  return { text: parts.join(''), redactions };
}

/** The text as it may be stored: `redactSecrets(text).text`. */
export function withoutSecrets(text: string): string {
  return redactSecrets(text).text;
}
