import type { SecretDetector } from './secretCandidate';
import { isPlaceholder } from './secretPatterns';

/**
 * `password=...`, `DB_PASSWORD: ...`, `"apiKey": "..."`, `token := "..."`, `'secret' => '...'`,
 * Make's `TOKEN ::= ...`/`?=`, PHP's `$token .= ...`, Go's `var token string = ...`: the key stays,
 * the value goes. A key is sensitive by its last word (`db_password`, `githubToken`, `x-api-key`),
 * so `tokenizer`, `passwordField` and `max_tokens` are left alone.
 */
const ASSIGNMENT_RE =
  /(?<![\w.-])(["']?)([A-Za-z0-9_][\w.-]{0,63})\1\]?(?:[ \t]{1,4}(?:string|String|str))?[ \t]{0,8}(:::=|::=|:=|\?=|\.=|\+=|=>|=|:)(?![=:])([ \t]{0,8})/g;
/** `"facebook access_token": "..."`: a quoted key may hold spaces (JSON keys are any string). */
const SPACED_KEY_RE =
  /(["'])([A-Za-z0-9_][\w.-]{0,31}(?: [\w.-]{1,31}){1,3})\1[ \t]{0,8}(:=|=>|=|:)(?![=:])([ \t]{0,8})/g;
/** `setProperty("API_TOKEN", "...")`, `put('password', '...')`: a call's quoted key, a comma, a quoted value. */
const ARGUMENT_RE = /\([ \t]{0,8}(["'])([A-Za-z_][\w.-]{0,63})\1[ \t]{0,8},[ \t]{0,8}(?=["'`])/g;
/** `<apiToken>...</apiToken>`: an XML element named for a secret, its text the value. */
const ELEMENT_RE = /<([A-Za-z_][\w.-]{0,63})>[ \t\r\n]{0,64}(?=[^<\s])/g;
/** `Your API key is 2afd...`: prose naming a secret, then its value; only a drawn value counts. */
const PROSE_RE = /(?<![\w.-])([A-Za-z][\w-]{0,31})[ \t]{1,4}is[ \t]{1,4}(?=["'`]?[A-Za-z0-9])/g;
/** Prose says `is` after almost any word: only a secret's word before it is worth the scan above. */
const PROSE_HINT_RE = /(?:pass(?:wd|word|phrase)?|pwd|secret|token|key|credentials?)[ \t]{1,4}is[ \t]/i;
/** `--password=...` and `--token ...` on command lines. */
const FLAG_RE = /(?<![\w-])--([A-Za-z][\w-]{0,63})(=|[ \t]{1,8})/g;
const UNQUOTED_VALUE_RE = /[^\s'"`,;)}\]<>&]{1,1024}/y;
const CAMEL_BOUNDARY_RE = /([a-z0-9])([A-Z])/g;
/** An acronym before a word: `EZAKToken`, `APIKey`. */
const ACRONYM_BOUNDARY_RE = /([A-Z])([A-Z][a-z])/g;
const CODE_PATH_RE = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;
const IDENTIFIER_RE = /^[A-Za-z_$][\w$]*$/;
const TYPE_NAME_RE = /^[A-Z][A-Za-z]*$/;
const ENV_REFERENCE_RE =
  /^(?:process\.env|os\.environ|os\.getenv|import\.meta\.env|env\.|secrets\.|vars\.|ENV\[)/;
/** Long enough for an Azure refresh token or a large JWT (1-3 KB), short enough to stay cheap. */
const MAX_QUOTED = 4096;
const MIN_LOOSE_PASSWORD = 3;
const MIN_LOOSE_SECRET = 8;

const PASSWORD_WORDS = new Set(['password', 'passwd', 'pwd', 'pass', 'passphrase']);
const SECRET_KEY_QUALIFIERS = new Set(['secret', 'private', 'signing', 'encryption', 'master', 'client']);
/** Values that are code or prose, not secrets: literals and type names (`token: string`). */
const NOT_VALUES = new Set(
  'true false null nil none undefined yes no on off required optional string str number int boolean bool bytes any unknown object'.split(
    ' ',
  ),
);

/**
 * Keys seen recently and what they name (null: nothing). JSON and config text repeat the same few
 * keys (`type`, `content`, `tool_use_id`...) on every line; splitting each into words again was a
 * tenth of a capture ingest's redaction (profiled on real Claude Code transcripts, 2026-11-28).
 */
const KIND_OF_KEY = new Map<string, string | null>();
const KIND_OF_KEY_MAX = 4096;

/** The kind of secret a key names, or undefined when it names none. */
function secretKindOfKey(key: string): string | undefined {
  let kind = KIND_OF_KEY.get(key);
  if (kind === undefined) {
    if (KIND_OF_KEY.size >= KIND_OF_KEY_MAX) KIND_OF_KEY.clear();
    kind = kindOfKey(key) ?? null;
    KIND_OF_KEY.set(key, kind);
  }
  return kind ?? undefined;
}

function kindOfKey(key: string): string | undefined {
  const words = key
    .replace(CAMEL_BOUNDARY_RE, '$1 $2')
    .replace(ACRONYM_BOUNDARY_RE, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
  const last = words[words.length - 1];
  const previous = words[words.length - 2];
  if (last === undefined) return undefined;
  if (PASSWORD_WORDS.has(last)) return 'password';
  if (last === 'secret') return 'secret';
  if (last === 'token') return 'token';
  if (last === 'apikey') return 'api-key';
  // `credentials: "include"` is code as often as `credentials: <key>` is a key: only drawn values count.
  if (last === 'credentials' || last === 'credential') return ANY_KEY;
  if (last === 'key' && previous !== undefined) {
    if (previous.endsWith('api') || previous === 'access') return 'api-key';
    if (SECRET_KEY_QUALIFIERS.has(previous)) return 'secret';
  }
  if (last === 'key') return ANY_KEY;
  // One word that ends in a key's or a token's name (`hapikey`, `DUO_SKEY`, `authtoken`): as a
  // plain key, only a drawn value counts, so `monkey` or `turkey` with a word after them stay.
  return /^[a-z0-9]{1,12}(?:key|token|secret)$/.test(last) ? ANY_KEY : undefined;
}

/**
 * A key of a service (`HEROKU_KEY`, `hubspotKey`, a log's `Using Key=...`) or of anything else
 * (`cacheKey`, `sortKey`): a secret only when its value is drawn rather than named: a UUID, the
 * shape several services issue keys in, or a long run of letters and digits mixed throughout.
 */
const ANY_KEY = 'key';
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** 20 or more key characters, no blank: what services issue, and no word, name or path is. */
const DRAWN_KEY_RE = /^[A-Za-z0-9][A-Za-z0-9+/=_.-]{19,}$/;

/**
 * Whether a value under a plain `key` name was drawn at random: the whole value, or one of its
 * pieces when it is a pair or carries a tail (`user:<key>`, `<key>:c*X`, `_<key>=`, `<key>%gtj`):
 * split at characters no key is written with and trimmed of punctuation at the front.
 */
function looksDrawnKey(value: string): boolean {
  if (looksDrawnPiece(value)) return true;
  for (const piece of value.split(/[^A-Za-z0-9+/=_.-]+/)) {
    const trimmed = piece.replace(/^[^A-Za-z0-9]+/, '');
    if (trimmed !== value && looksDrawnPiece(trimmed)) return true;
  }
  return false;
}

/**
 * A UUID, mixed case with digits (looksGenerated), mixed case without digits whose case changes
 * all along (random letters do; `XMLHttpRequestEventTarget` and camelCase names run a word's
 * letters in one case), or letters and digits each at least four times that alternate often, as
 * random base-36 does (`e8hwspf91879g0u267yq...`) and names and versions do not (`cache_v2`,
 * `release-2024.01.15`).
 */
function looksDrawnPiece(value: string): boolean {
  if (UUID_RE.test(value)) return true;
  if (!DRAWN_KEY_RE.test(value) || CODE_PATH_RE.test(value)) return false;
  if (/(.)\1{5}/.test(value)) return false; // `4b1dXXXXXXXX...`: a stand-in, not drawn
  if (looksGenerated(value) || casesDrawn(value)) return true;
  const classes = value
    .replace(/[^A-Za-z0-9]/g, '')
    .replace(/[A-Za-z]/g, 'a')
    .replace(/[0-9]/g, '0');
  const letters = classes.replace(/0/g, '').length;
  const digits = classes.length - letters;
  const alternations = classes.split('').filter((c, i) => i > 0 && c !== classes[i - 1]).length;
  return letters >= 4 && digits >= 4 && alternations >= 6;
}

/** Letters only, at least five of each case, changing case at a third of the letters or more, never six in one case. */
function casesDrawn(value: string): boolean {
  const cases = value
    .replace(/[^A-Za-z]/g, '')
    .replace(/[A-Z]/g, 'U')
    .replace(/[a-z]/g, 'l');
  if (/\d/.test(value) || /U{6}|l{6}/.test(cases)) return false;
  const upper = cases.replace(/l/g, '').length;
  const changes = cases.split('').filter((c, i) => i > 0 && c !== cases[i - 1]).length;
  return upper >= 5 && cases.length - upper >= 5 && changes * 3 >= cases.length;
}

type Form = 'env' | 'spaced' | 'colon';

/**
 * A key kindOfKey names ends with one of its words and then only `_`, `.` or `-` (what splitting
 * drops), and every form puts a quote, `]`, a blank, a separator or `>` right after the key. Text
 * without that holds no assignment to read, so one pass spares the four scans below: the JSON of
 * a transcript record says `"output_tokens":` in every assistant line, which the words alone let through.
 */
const KEY_BEFORE_VALUE_RE =
  /(?:pass(?:wd|word|phrase)?|pwd|secret|token|key|credentials?)[_.-]*["'\] \t:=?.+>]/i;

/** Whether the text can hold an assignment, flag, argument or element that detectAssignments reads. */
export function mayHoldAssignment(text: string): boolean {
  return KEY_BEFORE_VALUE_RE.test(text);
}

export const detectAssignments: SecretDetector = (text, out) => {
  if (!mayHoldAssignment(text)) return;
  for (const [re, formOf, hint] of [
    [ASSIGNMENT_RE, assignmentForm, /[:=]/],
    [SPACED_KEY_RE, assignmentForm, /\w ["']?[\w.-]*["'][ \t]*[:=]/],
    [FLAG_RE, () => 'env' as const, '--'],
    // Arguments and elements hold names as often as values: only a generated-looking value counts.
    [ARGUMENT_RE, () => 'colon' as const, '('],
    [ELEMENT_RE, () => 'colon' as const, '</'],
    [PROSE_RE, () => 'colon' as const, PROSE_HINT_RE],
  ] as const) {
    if (typeof hint === 'string' ? !text.includes(hint) : !hint.test(text)) continue;
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const key = (
        re === ASSIGNMENT_RE || re === ARGUMENT_RE || re === SPACED_KEY_RE ? m[2] : m[1]
      ) as string;
      const named = secretKindOfKey(key);
      if (named === undefined) continue;
      // Go's test report (`--- PASS: TestParse_Empty (0.00s)`) names a test, not a password.
      if (key === 'PASS' && text.startsWith('--- ', m.index - 4)) continue;
      if (re === ELEMENT_RE && named !== ANY_KEY) {
        const words = drawnWordsOfElement(text, m.index + m[0].length, key);
        if (words !== undefined) {
          for (const w of words) out.push({ kind: named, ...w });
          continue;
        }
      }
      const value =
        re === ELEMENT_RE
          ? elementText(text, m.index + m[0].length, key)
          : readValue(text, m.index + m[0].length);
      if (value === undefined || (re === ARGUMENT_RE && !value.quoted)) continue;
      const secret = text.slice(value.start, value.end);
      if (re === FLAG_RE && !value.quoted && secret.startsWith('-')) continue; // `--password --verbose`
      // `cacheKey`, `sortKey`: a key names a secret only when its value is generated; so does prose.
      if ((named === ANY_KEY || re === PROSE_RE) && !looksDrawnKey(secret)) continue;
      const kind = named === ANY_KEY ? 'api-key' : named;
      if (!acceptValue(secret, kind, value.quoted && re !== ARGUMENT_RE, formOf(m))) continue;
      out.push({ kind, start: value.start, end: value.end });
      re.lastIndex = Math.max(re.lastIndex, value.end);
    }
  }
};

/** An element's text when it is one word and the element closes right after it. */
function elementText(
  text: string,
  pos: number,
  name: string,
): { start: number; end: number; quoted: boolean } | undefined {
  // Looked for within reach only, so that many open tags cost no more than one each.
  const close = text.slice(pos, pos + MAX_QUOTED + 64).indexOf(`</${name}>`);
  if (close === -1) return undefined;
  const word = text.slice(pos, pos + close).trimEnd();
  return /\s/.test(word) ? undefined : { start: pos, end: pos + word.length, quoted: false };
}

/**
 * The drawn words of an element named for a secret whose text is several words (`<secret>{AQAAABAAA
 * 5422358j60yxo9nc0d...}</secret>`, `<token>Bearer ...</token>`); undefined when it is one word
 * (elementText reads it) or does not close within reach.
 */
function drawnWordsOfElement(
  text: string,
  pos: number,
  name: string,
): { start: number; end: number }[] | undefined {
  const close = text.slice(pos, pos + MAX_QUOTED + 64).indexOf(`</${name}>`);
  if (close === -1) return undefined;
  const inner = text.slice(pos, pos + close);
  if (!/\S\s+\S/.test(inner)) return undefined;
  const words: { start: number; end: number }[] = [];
  for (const w of inner.matchAll(/[^\s{}]+/g)) {
    if (looksDrawnKey(w[0]) && !isPlaceholder(w[0]))
      words.push({ start: pos + w.index, end: pos + w.index + w[0].length });
  }
  return words;
}

/** `KEY=value` (shell, .env) is data; `key = value` may be code; `key: value` may be prose or a type. */
function assignmentForm(m: RegExpExecArray): Form {
  const separator = m[3] as string;
  if (separator === ':') return 'colon';
  const after = m[4] ?? '';
  const before = m[0][m[0].length - after.length - separator.length - 1] ?? '';
  return after.length > 0 || before === ' ' || before === '\t' ? 'spaced' : 'env';
}

function readValue(text: string, pos: number): { start: number; end: number; quoted: boolean } | undefined {
  const quote = text[pos];
  if (quote === '"' || quote === "'" || quote === '`') {
    for (let i = pos + 1; i < text.length && i <= pos + MAX_QUOTED; i++) {
      const c = text[i];
      if (c === '\n') return undefined;
      if (c === '\\') i++;
      else if (c === quote) return { start: pos + 1, end: i, quoted: true };
    }
    return undefined;
  }
  UNQUOTED_VALUE_RE.lastIndex = pos;
  const m = UNQUOTED_VALUE_RE.exec(text);
  if (m === null) return undefined;
  let end = pos + m[0].length;
  while (end > pos + 1 && text[end - 1] === '.') end--; // sentence full stop
  return { start: pos, end, quoted: false };
}

/** 16 characters or more mixing digits, lower and upper case: drawn at random, not named. */
function looksGenerated(word: string): boolean {
  return word.length >= 16 && /\d/.test(word) && /[a-z]/.test(word) && /[A-Z]/.test(word);
}

function acceptValue(value: string, kind: string, quoted: boolean, form: Form): boolean {
  if (value.length === 0 || NOT_VALUES.has(value.toLowerCase())) return false;
  // `tests pass:"}],` and `pass:\n\n1.` in a transcript's JSON: a string's closing quote or an
  // escaped line break follows the word, and no secret is made of punctuation alone.
  if (!/[A-Za-z0-9]/.test(value) || /^\\[nrt]/.test(value)) return false;
  if (isPlaceholder(value) || ENV_REFERENCE_RE.test(value)) return false;
  // A quoted value or a shell/.env assignment is data whatever its length.
  if (quoted) return true;
  if (value.includes('(')) return false; // a call: getToken(user)
  if (form === 'env') return true;
  // Unquoted after `: ` or ` = `: code and prose are common, so short values do not count.
  if (value.length < (kind === 'password' ? MIN_LOOSE_PASSWORD : MIN_LOOSE_SECRET)) return false;
  // config.auth.token; not Vault's `s.ZC9Ecf4M5g9o34Q6RkzGsj0z`, whose last part no one names so.
  if (CODE_PATH_RE.test(value) && !looksGenerated(value.slice(value.lastIndexOf('.') + 1))) return false;
  if (form === 'spaced') return !(IDENTIFIER_RE.test(value) && !/\d/.test(value)); // token = newToken
  // After a colon, prose ("Token: we need one") and type annotations (`password: Password`) are
  // common, so only a value that looks generated counts.
  if (TYPE_NAME_RE.test(value) || /['’]/.test(value)) return false;
  if (/^[A-Z]+(?:_[A-Z]+)+$/.test(value)) return false; // a constant's or a variable's name: YOUR_API_KEY
  return /\d/.test(value) || /[^A-Za-z0-9]/.test(value) || /[a-z][A-Z]/.test(value) || value.length >= 16;
}
