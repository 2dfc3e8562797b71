import { EngramError } from '../errors';
import { detectLowerCasedPrivateKeys, detectPrivateKeys } from './privateKeyBlocks';
import { detectAssignments } from './secretAssignments';
import type { ScanScope, SecretCandidate, SecretDetector } from './secretCandidate';
import { detectLowerCasedTokens, detectProviderTokens, detectTokens } from './secretPatterns';
import { detectPrefixedTokens } from './prefixedTokens';
import { detectQueryCredentials } from './urlQueryCredentials';

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
  // After assignments, which name `?access_token=` a token already.
  detectQueryCredentials,
  detectPrefixedTokens,
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
  redactRepeats(text, taken, redactions);
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

/** Shorter values (`admin`, `1234`) are too often ordinary words elsewhere in the same text. */
const MIN_REPEATED_SECRET = 8;
const WORD_CHAR_RE = /[A-Za-z0-9]/;
const joinsWord = (a: string | undefined, b: string | undefined): boolean =>
  a !== undefined && b !== undefined && WORD_CHAR_RE.test(a) && WORD_CHAR_RE.test(b);
/** Each distinct secret is one scan of the text: a text full of them (a dump) stays linear. */
const MAX_REPEAT_SCANS = 64;

/**
 * A secret found once is a secret everywhere in the text: a token pasted in a command comes back in
 * its output, and a key read from `.env` is echoed in a log line no rule would recognise by itself.
 */
function redactRepeats(text: string, taken: Uint8Array, redactions: Redaction[]): void {
  const seen = new Set<string>();
  for (const { kind, start, end } of redactions.slice()) {
    const secret = text.slice(start, end);
    if (secret.length < MIN_REPEATED_SECRET || seen.has(secret)) continue;
    if (seen.size === MAX_REPEAT_SCANS) return;
    seen.add(secret);
    for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + 1)) {
      if (taken.subarray(at, at + secret.length).includes(1)) continue;
      // Only as a whole word: the password `postgres1` is no part of `postgres1x`.
      if (
        joinsWord(text[at - 1], secret[0]) ||
        joinsWord(secret[secret.length - 1], text[at + secret.length])
      )
        continue;
      taken.fill(1, at, at + secret.length);
      redactions.push({ kind, start: at, end: at + secret.length });
    }
  }
}

/** The text as it may be stored: `redactSecrets(text).text`. */
export function withoutSecrets(text: string): string {
  return redactSecrets(text).text;
}
