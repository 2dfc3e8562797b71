import type { VerificationContext } from './verificationContext';

/**
 * Which files can show that a symbol, option or variable exists in the project. Docs, tests,
 * examples, benchmarks and changelogs mention names that are gone ("`oldName` was renamed"), and
 * lockfiles and generated files are large and say nothing about the code: none of them is
 * evidence of presence, and none is worth a search.
 */
const GENERATED = [
  '**/package-lock.json',
  '**/npm-shrinkwrap.json',
  '**/yarn.lock',
  '**/pnpm-lock.yaml',
  '**/bun.lockb',
  '**/*.lock',
  '**/*.min.js',
  '**/*.min.css',
  '**/*.map',
  '**/*.snap',
  '**/node_modules/**',
  '**/vendor/**',
  '**/dist/**',
  '**/coverage/**',
  // Engram's own files: a team memory committed under .engram/team/ names what it claims, and
  // must never be the evidence that keeps its own claim true.
  '**/.engram/**',
];
const NOT_CODE = [
  '**/*.md',
  '**/*.markdown',
  '**/*.mdx',
  '**/*.rst',
  '**/*.txt',
  '**/*.adoc',
  '**/docs/**',
  '**/doc/**',
  '**/documentation/**',
  // The docs site's own code (redux's Docusaurus pages), not the project's.
  '**/website/**',
  // Stylesheets name no symbol of the code (`text`, `color` in a gitbook theme's CSS).
  '**/*.css',
  '**/*.scss',
  '**/*.sass',
  '**/*.less',
  '**/*.styl',
  '**/test/**',
  '**/tests/**',
  '**/__tests__/**',
  '**/spec/**',
  '**/fixtures/**',
  '**/__snapshots__/**',
  '**/*.test.*',
  // A package's whole test suite in one file at its root (`test.js`, `test.mjs`).
  '**/test.*',
  '**/tests.*',
  '**/*.spec.*',
  '**/example/**',
  '**/examples/**',
  '**/benchmark/**',
  '**/benchmarks/**',
  '**/bench/**',
  '**/CHANGELOG*',
  '**/HISTORY*',
  '**/CHANGES*',
  // Tool configuration (`.eslintrc.js`, `.github/`), not the project's code.
  '**/.*',
  '**/.*/**',
  // Hand-written type declarations of a JavaScript package lag behind its code (a removed
  // function keeps its declaration for months); compiled ones are not in the source at all.
  '**/*.d.ts',
];

export type EvidenceScope = 'code' | 'text';

/**
 * git pathspecs (with magic, so never under --literal-pathspecs) for `files` (each taken
 * literally; the whole tree when none) without what a scope never reads.
 */
export function evidencePathspecs(scope: EvidenceScope, files: readonly string[] = []): string[] {
  const excluded = scope === 'code' ? [...GENERATED, ...NOT_CODE] : GENERATED;
  const included = files.length > 0 ? files.map((file) => `:(literal)${file}`) : ['.'];
  return [...included, ...excluded.map((glob) => `:(exclude,glob)${glob}`)];
}

const NOT_CODE_RE = globsToRegExp([...GENERATED, ...NOT_CODE]);
const GENERATED_RE = globsToRegExp(GENERATED);

/** True when a workspace path (`/` separators) is a lockfile, generated or vendored: never read. */
export function isGenerated(file: string): boolean {
  return GENERATED_RE.test(file);
}

/**
 * The code files whose text holds any of `needles`, strings included (`'vite/modulepreload-polyfill'`,
 * `"migration:generate <path>"`): the code scope keeps only one-word strings, so these are read
 * from any text and kept in code files here.
 */
export async function codeFilesHolding(
  ctx: Pick<VerificationContext, 'literals'>,
  needles: readonly string[],
): Promise<string[]> {
  const found = await Promise.all(needles.map((n) => ctx.literals.get(n)));
  return [...new Set(found.flatMap((files) => [...files]))].filter(isCodeEvidence).sort();
}

/** True when a workspace path (`/` separators) can show that a name exists in the code. */
export function isCodeEvidence(file: string): boolean {
  return !NOT_CODE_RE.test(file);
}

function globsToRegExp(globs: readonly string[]): RegExp {
  const parts = globs.map((glob) =>
    glob
      .replace(/^\*\*\//, '')
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*\*\//g, '(?:.*/)?')
      .replace(/\/\*\*$/, '/.*')
      .replace(/\*/g, '[^/]*'),
  );
  return new RegExp(`(?:^|/)(?:${parts.join('|')})$`, 'i');
}

const SOURCE_RE =
  /\.(?:[cm]?[jt]sx?|py|go|rs|rb|java|kt|kts|cs|php|swift|scala|c|cc|cpp|h|hpp|lua|dart|ex|exs)$/i;
/** A string kept as code: one name, key or flag (`'ready'`, `'--watch'`), not a sentence or a path. */
const KEPT_LITERAL_RE = /^[-\w$.:]+$/;
const HASH_COMMENT_RE = /\.(?:py|rb|ex|exs)$/i;

/**
 * A source line as code: comments and sentences in strings blanked, so a name that survives only
 * in an error message ("`oldName` has been renamed") or a comment is not taken for the code's.
 * A string of one token (`'ready'`, `'--watch'`) is kept: event names, flags and keys are written
 * so. Line by line: a line that opens with `*` or `/*` is taken as a block comment's.
 */
export function codeOfLine(file: string, line: string): string {
  if (!SOURCE_RE.test(file)) return line;
  const trimmed = line.trimStart();
  if (trimmed.startsWith('*') || trimmed.startsWith('/*')) return '';
  const hash = HASH_COMMENT_RE.test(file);
  let out = '';
  let quote: string | undefined;
  let literal = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quote !== undefined) {
      if (c === '\\') i++;
      else if (c === quote) {
        out += (KEPT_LITERAL_RE.test(literal) ? literal : '') + c;
        quote = undefined;
      } else literal += c;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      quote = c;
      literal = '';
      out += c;
    } else if ((c === '/' && line[i + 1] === '/') || (hash && c === '#')) break;
    else if (c === '/' && line[i + 1] === '*') {
      const close = line.indexOf('*/', i + 2);
      if (close === -1) break;
      i = close + 1;
    } else out += c;
  }
  return out;
}
