import type { SecretDetector } from './secretCandidate';

/**
 * The shape most services issue keys in today, whoever the service: a short name, `_` or `-`,
 * maybe a second short part (`lsv2_pt_`), then a long body drawn at random (`pri_<32 hex>`,
 * `key-<32 base36>`, `api-<uuid-like>`). Recognised by the shape instead of one pattern per service.
 * The body must be 32 characters or more: the ids agents' transcripts are full of (`msg_01...`,
 * `toolu_01...`, `call_...`, `chatcmpl-...`) are shorter, and they must stay as they are.
 */
/** Cheap gate: a separator and 32 body characters (tried at separators only, so faster than RUN_RE). */
const PREFIXED_HINT_RE = /[_-][A-Za-z0-9+/=_-]{32}/;
/** A run of these long enough holds a name, a separator and a 32-character body. */
const RUN_CHAR = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-')
  RUN_CHAR[c.charCodeAt(0)] = 1;
const MIN_RUN = 34;
const PREFIXED_RE =
  /^([A-Za-z][A-Za-z0-9]{1,7})([_-])(?:[A-Za-z0-9]{1,4}\2)?([A-Za-z0-9][A-Za-z0-9+/=_-]{31,255})$/;
/** Before a token, these make it part of a host, an address, a port or an escape; after one, an address. */
const JOINS_BEFORE = new Set(['.', '@', ':', '%']);
const JOINS_AFTER = new Set(['@']);
/** A run may hold a path or an assignment: the token may start after any `/` or `=` in it too. */
const MAX_STARTS = 8;
/** Digests and encodings name their algorithm the same way (`sha512-<base64>` in lock files). */
const NOT_ISSUERS = /^(?:sha\d*|md5|blake\d*|base\d*|hex|utf\d*|x\d*|v\d*)$/i;

const MIXED_CASE = /[a-z].*[A-Z]|[A-Z].*[a-z]/;
const UUID_IN_RE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/**
 * Letters and digits each at least six times, alternating at least eight times, and at most one
 * short part without a digit (`wgrq` of a base-36 UUID): drawn, not a name, a path or a version.
 */
function drawnBody(body: string): boolean {
  // `capture-bench-<hex>/db0/memory`: words joined to a hash are a name or a path, not a key.
  // `entire-sessions/<uuid>`: with a slash, not even one such word (a directory's name).
  const parts = body.split(/[_/-]/);
  const words = parts.filter((w) => w.length < 16 && !/\d/.test(w));
  if (words.length > (body.includes('/') ? 0 : 1)) return false;
  // The drawn part starts right after the name: `write_file-<time>-<hex>` is a call's id, and
  // `model_session_id=<uuid>` an assignment (`=` only pads the end of a key).
  if (words[0] === parts[0] || /=[^=]/.test(body)) return false;
  const chars = body.replace(/[^A-Za-z0-9]/g, '');
  if (chars.length < 28 || /(.)\1{5}/.test(chars)) return false; // `sk-AAAAAAAA...`: a stand-in
  const classes = chars.replace(/[A-Za-z]/g, 'a').replace(/[0-9]/g, '0');
  const digits = classes.replace(/a/g, '').length;
  const alternations = classes.split('').filter((c, i) => i > 0 && c !== classes[i - 1]).length;
  return digits >= 6 && chars.length - digits >= 6 && alternations >= 8;
}

/** The position after the next `/` or `=` of the run, or -1. */
function nextStart(text: string, from: number, end: number): number {
  for (let i = from; i < end; i++) {
    const c = text[i];
    if (c === '/' || c === '=') return i + 1;
  }
  return -1;
}

function isPrefixedToken(candidate: string): boolean {
  const m = PREFIXED_RE.exec(candidate);
  if (m === null) return false;
  const [, prefix, , body] = m as unknown as [string, string, string, string];
  // A UUID after a name or a date (`session-<uuid>`, `2026-01-13-<uuid>`) is an id far more often than a key.
  // Issuers name their keys in one case (`sk_`, `glpat-`, `PMAK-`); a mixed-case start (`doLg_`) is
  // the head of a base64url digest or id, 7% of which held this shape before the rule.
  return !MIXED_CASE.test(prefix) && !NOT_ISSUERS.test(prefix) && !UUID_IN_RE.test(body) && drawnBody(body);
}

export const detectPrefixedTokens: SecretDetector = (text, out) => {
  if (!PREFIXED_HINT_RE.test(text)) return;
  // The long runs of token characters, in one pass (a loop costs a third less than a regex here),
  // and the shape tried on those only.
  let start = 0;
  for (let end = 0; end <= text.length; end++) {
    const c = end < text.length ? text.charCodeAt(end) : 0;
    if (c < 128 && RUN_CHAR[c] === 1) continue;
    const runStart = start;
    start = end + 1;
    if (end - runStart < MIN_RUN) continue;
    if (JOINS_AFTER.has(text[end] ?? '')) continue;
    const before = text[runStart - 1] ?? '';
    // After a backslash the run's first letter is an escape's (`\n<token>` in a JSON line).
    let at = JOINS_BEFORE.has(before)
      ? nextStart(text, runStart, end)
      : before === '\\'
        ? runStart + 1
        : runStart;
    for (let tries = 0; at !== -1 && end - at >= MIN_RUN && tries < MAX_STARTS; tries++) {
      if (isPrefixedToken(text.slice(at, end))) {
        out.push({ kind: 'token', start: at, end });
        break;
      }
      at = nextStart(text, at, end);
    }
  }
};
