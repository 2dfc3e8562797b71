import { createMention } from './mention';
import type { Mention } from './mention';
import type { ScanContext } from './scanContext';
import { forEachMatch } from './regexScan';

/** Reads of the environment in code: `process.env.X`, `os.environ["X"]`, `env::var("X")` ... */
const CODE_REFERENCE_RE =
  /(?<![\w$.])(?:process\.env\.([A-Za-z_]\w{0,127})|(?:process\.env|os\.environ|ENV)\[[ \t]*['"]([A-Za-z_]\w{0,127})['"][ \t]*\]|import\.meta\.env\.([A-Za-z_]\w{0,127})|(?:os\.environ\.get|os\.getenv|getenv|Deno\.env\.get|System\.getenv|(?:std::)?env::var)\([ \t]*['"]([A-Za-z_]\w{0,127})['"])/g;
/** Shell and Windows references: `$HOME`, `${DATABASE_URL}`, `%APPDATA%`, `$env:PATH`. */
const SHELL_REFERENCE_RE =
  /(?<![\w$\\])(?:\$\{([A-Z_][A-Z0-9_]{1,127})\}|\$([A-Z_][A-Z0-9_]{1,127})(?!\w)|\$env:([A-Za-z_]\w{0,127})|%([A-Z_][A-Z0-9_]{1,127})%)/g;
/** A name the words beside it call an environment variable: "the `X` env variable", "environment variable X". */
const NAMED_ENV_RE =
  /\b(?:env(?:ironment)?\s+var(?:iable)?s?\s+`?([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`?|`?([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`?\s+env(?:ironment)?\s+var(?:iable)?s?\b)/g;
const ASSIGNED_NAME_CHAR_RE = /[A-Z0-9_]/;
/** Characters before an upper-case name that make it part of something else: `aFOO=`, `x.FOO=`. */
const NOT_BEFORE_ASSIGNED_RE = /[\w$.-]/;
const LETTER_RE = /[A-Za-z]/;

const KNOWN_ENV_NAMES = new Set(
  'PATH HOME GOPATH GOROOT KUBECONFIG PGHOST PGPORT PGUSER PGPASSWORD PGDATABASE TMPDIR EDITOR SHELL NODE_ENV NODE_OPTIONS LOG_LEVEL'.split(
    ' ',
  ),
);
/** First word of names like `AWS_REGION`, `NEXT_PUBLIC_API_URL`. */
const ENV_PREFIXES = new Set(
  'NODE NPM AWS GITHUB GH CI DATABASE DB REDIS POSTGRES MYSQL MONGO OPENAI ANTHROPIC VSCODE ENGRAM DOCKER KUBE JAVA PYTHON GOOGLE GCP AZURE NEXT VITE REACT XDG SSH GIT CARGO RUST'.split(
    ' ',
  ),
);
/** Last word of names like `REDIS_URL`, `GITHUB_TOKEN`, `LOG_LEVEL`. */
const ENV_SUFFIXES = new Set(
  'URL URI HOST HOSTNAME PORT KEY TOKEN SECRET PASSWORD PASS USER USERNAME PATH HOME DIR ENV REGION PROFILE ENDPOINT DSN PROXY LEVEL DB DATABASE'.split(
    ' ',
  ),
);

/**
 * Whether a bare upper-case name (no `$`, no `process.env`) reads as an environment variable
 * rather than a code constant: `DATABASE_URL` and `GITHUB_TOKEN` yes, `MAX_RETRIES` no.
 */
export function isLikelyEnvName(name: string): boolean {
  if (KNOWN_ENV_NAMES.has(name)) return true;
  const first = name.indexOf('_');
  if (first <= 0) return false;
  return ENV_PREFIXES.has(name.slice(0, first)) || ENV_SUFFIXES.has(name.slice(name.lastIndexOf('_') + 1));
}

export function matchEnvVars(ctx: ScanContext, out: Mention[]): void {
  const { text } = ctx;
  if (text.includes('env') || text.includes('ENV')) collect(text, CODE_REFERENCE_RE, out);
  if (text.includes('$') || text.includes('%')) collect(text, SHELL_REFERENCE_RE, out);
  matchAssignments(text, out);
  if (/env/i.test(text)) matchNamedVariables(text, out);
}

function matchNamedVariables(text: string, out: Mention[]): void {
  forEachMatch(NAMED_ENV_RE, text, (m) => {
    const name = (m[1] ?? m[2]) as string;
    const start = m.index + m[0].indexOf(name);
    out.push(createMention(start, start + name.length, 'env', name, name.toLowerCase()));
  });
}

/**
 * Upper-case assignments in shells and .env files, `NODE_ENV=production npm start`, found from
 * each `=` by walking back over the name: the mention is the name only.
 */
function matchAssignments(text: string, out: Mention[]): void {
  for (let eq = text.indexOf('='); eq !== -1; eq = text.indexOf('=', eq + 1)) {
    if (text[eq + 1] === '=') continue;
    let start = eq;
    while (start > 0 && eq - start < 128 && ASSIGNED_NAME_CHAR_RE.test(text[start - 1] as string)) start--;
    if (eq - start < 2 || !/[A-Z]/.test(text[start] as string)) continue;
    if (start > 0 && NOT_BEFORE_ASSIGNED_RE.test(text[start - 1] as string)) continue;
    const name = text.slice(start, eq);
    out.push(createMention(start, eq, 'env', name, name.toLowerCase()));
  }
}

/** The whole reference is the mention: `$HOME`, `process.env.PORT`. */
function collect(text: string, re: RegExp, out: Mention[]): void {
  forEachMatch(re, text, (m) => {
    const name = m.slice(1).find((g) => g !== undefined);
    if (name === undefined || !LETTER_RE.test(name)) return;
    out.push(createMention(m.index, m.index + m[0].length, 'env', name, name.toLowerCase()));
  });
}
