import { mapStrings } from '../extract/jsonLeaves';
import { storedJsonText } from '../extract/storedText';
import type { ParsedText } from '../extract/storedText';

/**
 * `<private>...</private>` spans are the user's way to keep something out of every memory: they
 * are dropped whole, tags included. An unclosed tag drops the rest of the text (the safe side).
 */
const PRIVATE_RE = /<private>[\s\S]*?(?:<\/private>|$)/gi;

/** `name@host.tld`; `git@host` (an SSH remote's user, not a person) is kept. */
const EMAIL_RE =
  /(?<![\w.+%-])([A-Za-z0-9][A-Za-z0-9._%+-]{0,63})@((?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24})(?![\w-])/g;

/**
 * Phone numbers as people write them: international with a leading `+` (8 to 15 digits in groups),
 * or the North American `(415) 555-0100` / `415-555-0100` / `415.555.0100`. Bare digit runs, dates,
 * versions, IP addresses, UUIDs and hashes have none of these shapes.
 */
const INTERNATIONAL_RE = /(?<![\w+])\+\d{1,3}(?:[ .-]?\(?\d{1,5}\)?){2,5}(?![\w])/g;
const NORTH_AMERICAN_RE = /(?<![\w.+-])(?:\(\d{3}\) ?|\d{3}[-. ])\d{3}[-. ]\d{4}(?![\w-]|\.\d)/g;

/** E-mail addresses and phone numbers as typed placeholders, private spans dropped. */
export function redactPersonal(text: string): string {
  if (text.length === 0) return text;
  let out = text.includes('<') ? text.replace(PRIVATE_RE, '') : text;
  if (out.includes('@')) {
    out = out.replace(EMAIL_RE, (match, user: string) =>
      user.toLowerCase() === 'git' ? match : '[REDACTED:email]',
    );
  }
  if (/\d{3}/.test(out)) {
    out = out.replace(INTERNATIONAL_RE, (match) =>
      digits(match) >= 8 && digits(match) <= 15 ? '[REDACTED:phone]' : match,
    );
    out = out.replace(NORTH_AMERICAN_RE, '[REDACTED:phone]');
  }
  return out;
}

const digits = (s: string) => s.replace(/\D/g, '').length;

/** A long run of base64 (an image or file pasted into a session), with or without a data: prefix. */
const BINARY_RE = /^(?:data:[\w.+/-]{1,100};base64,)?[A-Za-z0-9+/\r\n]{1024,}={0,2}$/;

/**
 * A JSON record with its binary payloads (screenshots, pasted files: base64 strings of 1 KiB or
 * more) replaced by `[binary: N characters dropped]`: they say nothing a memory can use and would
 * make the ledger many times larger. Other text is returned as it is.
 */
export function withoutBinary(text: string): string {
  return binaryDropped(text).text;
}

/** withoutBinary, with the record's value when it was parsed and kept its text. */
function binaryDropped(text: string): ParsedText {
  if (text.length < 1024 || (text.charCodeAt(0) !== 0x7b && text.charCodeAt(0) !== 0x5b)) return { text };
  try {
    const value = JSON.parse(text) as unknown;
    const compact = mapStrings(value, (s) =>
      s.length >= 1024 && BINARY_RE.test(s) ? `[binary: ${s.length} characters dropped]` : s,
    );
    return compact === value ? { text, value } : { text: JSON.stringify(compact) };
  } catch {
    return { text };
  }
}

/**
 * A record as the capture ledger keeps it: binary payloads dropped (withoutBinary), the project's secret patterns (storedText: API keys,
 * tokens, private keys, passwords in assignments and URLs, connection strings, JWTs; JSON stays
 * JSON), then personal data and private spans in every string of it. Readers parse this redacted
 * text, so everything derived from the ledger is redacted too and can be rebuilt from it.
 */
export function redactRecord(text: string): string {
  return redactedRecord(text).text;
}

export interface RedactedRecord extends ParsedText {
  /** storedText returned this text as it was given: the store's write policy would too. */
  clean: boolean;
}

/**
 * redactRecord, with the redacted record's JSON value when it is known (a record is parsed once
 * for all three passes and its reader, unless a pass changed its text: then it is parsed anew),
 * and whether the secret patterns left it as it was.
 */
export function redactedRecord(text: string): RedactedRecord {
  const dropped = binaryDropped(text);
  const secretsOut = storedJsonText(dropped.text, dropped.value);
  const found = secretsOut.text === dropped.text;
  const first = secretsOut.text.charCodeAt(0);
  if (first === 0x7b || first === 0x5b) {
    try {
      const value = secretsOut.value ?? (JSON.parse(secretsOut.text) as unknown);
      const redacted = mapStrings(value, redactPersonal);
      return redacted === value
        ? { text: secretsOut.text, value, clean: found }
        : { text: JSON.stringify(redacted), clean: false };
    } catch {
      // not JSON after all: redact it as text
    }
  }
  const personal = redactPersonal(secretsOut.text);
  return { text: personal, clean: found && personal === secretsOut.text };
}
