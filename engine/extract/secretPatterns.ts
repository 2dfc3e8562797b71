import { PROVIDER_PATTERNS } from './providerTokens';
import type { SecretCandidate, SecretDetector, TokenPattern } from './secretCandidate';

const hasDigitAndLetter = (s: string): boolean => /\d/.test(s) && /[A-Za-z]/.test(s);

/**
 * Secrets recognisable by their shape. Prefixes are those the issuers document; every quantifier
 * is bounded and every pattern anchored on a boundary, so each runs in linear time. Order matters:
 * when two patterns claim the same text the earlier one names it (a JWT in an Authorization
 * header is reported as `jwt`, an Anthropic key as `anthropic-key`, not `openai-key`).
 */
const TOKEN_PATTERNS: readonly TokenPattern[] = [
  {
    kind: 'aws-access-key',
    hint: /A(?:KIA|SIA|BIA|CCA|3T)/,
    re: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])/g,
  },
  {
    kind: 'github-token',
    hint: /gh[pousr]_|github_pat_/,
    re: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{20,255}|github_pat_[A-Za-z0-9_]{22,255})(?![A-Za-z0-9_])/g,
  },
  {
    kind: 'anthropic-key',
    hint: 'sk-ant-',
    re: /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{20,512}(?![A-Za-z0-9_-])/g,
  },
  {
    kind: 'openai-key',
    hint: 'sk-',
    re: /(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,512}(?![A-Za-z0-9_-])/g,
    accept: (s) => hasDigitAndLetter(s.slice(3)),
  },
  {
    kind: 'slack-token',
    hint: 'xox',
    re: /(?<![A-Za-z0-9_-])xox[abprs]-[A-Za-z0-9-]{10,250}(?![A-Za-z0-9-])/g,
  },
  {
    kind: 'slack-webhook',
    hint: 'hooks.slack.com',
    re: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9_/]{20,200}/g,
  },
  {
    // A Discord webhook's URL carries its token: whoever has it posts as the webhook.
    kind: 'discord-webhook',
    hint: '/api/webhooks/',
    re: /https:\/\/(?:(?:ptb|canary)\.)?discord(?:app)?\.com\/api\/webhooks\/\d{5,30}\/[A-Za-z0-9_-]{20,200}/g,
  },
  {
    kind: 'google-api-key',
    hint: 'AIza',
    re: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g,
  },
  {
    kind: 'stripe-key',
    hint: /[sr]k_(?:live|test)_/,
    re: /(?<![A-Za-z0-9_])(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{10,247}(?![0-9A-Za-z])/g,
  },
  {
    kind: 'jwt',
    hint: 'eyJ',
    re: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{5,4096}\.[A-Za-z0-9_-]{5,4096}\.[A-Za-z0-9_-]{5,4096}(?![A-Za-z0-9_-])/g,
  },
  {
    // Unsigned (`"alg":"none"`): its claims are still the token's, and some servers accept it.
    kind: 'jwt',
    hint: 'eyJ',
    re: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{5,4096}\.eyJ[A-Za-z0-9_-]{2,4096}\.(?![A-Za-z0-9_-])/g,
  },
  {
    kind: 'aws-secret-key',
    hint: /secret/i,
    re: /(?<![A-Za-z0-9])(?:aws_?secret_?(?:access_?)?key|secret_?access_?key)["']?[ \t]{0,8}(?::=|=>|[:=])[ \t]{0,8}["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/dgi,
    group: 1,
  },
  {
    // Only the password is redacted: postgres://app:[REDACTED:password]@db:5432/app
    kind: 'password',
    hint: '://',
    re: /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,30}:\/\/[^\s:/@'"`]{0,256}:([^\s@/'"`]{1,256})@(?=[^\s@/'"`])/dg,
    group: 1,
    accept: (s) => !isPlaceholder(s),
  },
  {
    kind: 'basic-auth',
    hint: /authorization/i,
    re: /(?<![\w-])(?:proxy-)?authorization["']?[ \t]{0,8}[:=][ \t]{0,8}["']?basic[ \t]{1,8}([A-Za-z0-9+/=]{8,4096})/dgi,
    group: 1,
  },
  {
    // `curl -u user:password`, `--user user:password`: the password after the colon.
    kind: 'password',
    hint: /(?:^|\s)(?:-u|--user)[ \t=]/,
    // Not `user:user` (a test login), nor a placeholder or variable (`$PASSWORD`, `${{ ... }}`).
    // The user may be empty (`-u ":password"`), and each part quoted (`--user "id":"password"`).
    re: /(?<![\w-])(?:-u|--user)(?:[ \t]{1,8}|=)["']?([^\s:'"<>[\]]{0,128})["']?:["']?(?!\1(?:["'\s]|$))([^\s'"<>[\]]{4,256})/dg,
    group: 2,
    accept: (s) => !isPlaceholder(s) && !/^(?:[$%]|\{\{)/.test(s),
  },
  {
    // `curl -u sk_test_4eC39HqLyjWDarjtT1zdp7dc:`: a key sent as the user, with no password.
    kind: 'api-key',
    hint: /(?:^|\s)(?:-u|--user)[ \t=]/,
    re: /(?<![\w-])(?:-u|--user)(?:[ \t]{1,8}|=)["']?([^\s:'"<>[\]]{8,256}):(?=["'\s]|$)/dg,
    group: 1,
    accept: (s) => hasDigitAndLetter(s) && !isPlaceholder(s) && !/^[$%{]/.test(s),
  },
  {
    // A scheme-less Authorization value is taken whole, up to a quote, space or separator: a
    // credential may hold any character (OpenShift's `sha256~...@=...`).
    kind: 'bearer-token',
    hint: /authorization|bearer/i,
    re: /(?<![\w-])(?:(?:proxy-)?authorization["']?[ \t]{0,8}[:=][ \t]{0,8}["']?(?:(?:bearer|[a-z-]{0,16}token)[ \t]{1,8}([A-Za-z0-9._~+/-]{8,4096}=*)|([^\s"'`<>,;]{16,4096}))|bearer[ \t]{1,8}([A-Za-z0-9._~+/-]{16,4096}=*))/dgi,
    accept: hasDigitAndLetter,
  },
];

const PLACEHOLDER_RE =
  /^(?:\*+|x{3,}|\.{3}|…|<[^>]*>|\$\{?[\w.]+\}?|\$?\{\{.*\}\}|%\w+%?|%s|\[REDACTED:[\w-]+\]?|password|passwd|pass|secret|token|your[-_]?(?:password|secret|token|key))$/i;

/** Documentation stand-ins that are not secrets: `***`, `<password>`, `${DB_PASSWORD}` ... */
export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER_RE.test(value);
}

const hintSource = (hint: string | RegExp) =>
  typeof hint === 'string' ? hint.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : hint.source;

/**
 * Any token pattern's hint, in two passes instead of one per pattern (most records hold none):
 * the case-sensitive hints joined in one regex, the case-insensitive ones in another, so the
 * gate admits exactly the texts some hint admits (test/extract/tokenGate.test.ts).
 */
export function tokenHintGate(patterns: readonly TokenPattern[]): (text: string) => boolean {
  // Joined sources keep only the `i` flag: a hint with any other flag is never joined (no gate).
  if (patterns.some((p) => typeof p.hint !== 'string' && !/^i?$/.test(p.hint.flags))) return () => true;
  const join = (ignoreCase: boolean): RegExp | undefined => {
    const hints = patterns.filter((p) => typeof p.hint !== 'string' && p.hint.ignoreCase === ignoreCase);
    const literal = ignoreCase ? [] : patterns.filter((p) => typeof p.hint === 'string');
    const sources = [...literal, ...hints].map((p) => hintSource(p.hint));
    return sources.length === 0 ? undefined : new RegExp(sources.join('|'), ignoreCase ? 'i' : '');
  };
  const exact = join(false);
  const folded = join(true);
  return (text) => (exact?.test(text) ?? false) || (folded?.test(text) ?? false);
}

const TOKEN_HINT = tokenHintGate(TOKEN_PATTERNS);

export const detectTokens: SecretDetector = (text, out) => {
  if (TOKEN_HINT(text)) scanPatterns(TOKEN_PATTERNS, text, out);
};

/** Any provider's hint: one pass over a text that holds none, instead of one per provider (exported for tests). */
export const PROVIDER_HINT = new RegExp(PROVIDER_PATTERNS.map((p) => hintSource(p.hint)).join('|'));

/**
 * Whether `text` holds some provider's hint. Every hint matches letters, digits and `_.=-` only,
 * with no anchor or lookaround (test/extract/providerHintScope.test.ts), so a text without one
 * has none in any string of it either when it is JSON without `\u` escapes: no other escape
 * writes such a character (storedText.ts skips the strings' gate so).
 */
export function mayHoldProviderToken(text: string): boolean {
  return PROVIDER_HINT.test(text);
}

/** The services' prefixed tokens (providerTokens.ts); `scope.providerHints` is the gate's answer when known. */
export const detectProviderTokens: SecretDetector = (text, out, scope) => {
  if (scope?.providerHints ?? PROVIDER_HINT.test(text)) scanPatterns(PROVIDER_PATTERNS, text, out);
};

/**
 * Case-insensitive twins of the patterns that need an upper-case letter (`AKIA`, `AIza`, `eyJ`),
 * for text that was lower-cased before it came here: tags, entity keys and aliases (an export
 * written by another tool holds them so). Run only on text without an upper-case letter (see
 * secrets.ts), which the originals cannot match, so mixed-case prose gains no false positive.
 */
const LOWER_CASED_PATTERNS: readonly TokenPattern[] = TOKEN_PATTERNS.filter(
  (p) => !p.re.flags.includes('i') && /[A-Z]/.test(hintSource(p.hint)),
).map((p) => ({
  ...p,
  re: new RegExp(p.re.source, `${p.re.flags}i`),
  // The text has no upper-case letter: a lower-cased literal hint is as exact as the original.
  hint: typeof p.hint === 'string' ? p.hint.toLowerCase() : new RegExp(p.hint.source, 'i'),
}));

export const detectLowerCasedTokens: SecretDetector = (text, out) =>
  scanPatterns(LOWER_CASED_PATTERNS, text, out);

function scanPatterns(patterns: readonly TokenPattern[], text: string, out: SecretCandidate[]): void {
  for (const pattern of patterns) {
    const { hint } = pattern;
    if (typeof hint === 'string' ? !text.includes(hint) : !hint.test(text)) continue;
    for (const m of text.matchAll(pattern.re)) {
      const range = secretRange(m, pattern.group);
      if (range === undefined) continue;
      const secret = text.slice(range[0], range[1]);
      if (pattern.accept !== undefined && !pattern.accept(secret)) continue;
      out.push({ kind: pattern.kind, start: range[0], end: range[1] });
    }
  }
}

/** The explicit group, else the first group that matched (with `d`), else the whole match. */
function secretRange(m: RegExpMatchArray, group: number | undefined): [number, number] | undefined {
  const { indices } = m;
  if (indices === undefined) {
    const start = m.index ?? 0;
    return [start, start + m[0].length];
  }
  const found = group === undefined ? indices.slice(1).find((r) => r !== undefined) : indices[group];
  return found === undefined ? undefined : [found[0], found[1]];
}
