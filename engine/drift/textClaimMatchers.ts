import type { ExtractedClaim } from './claimTypes';

/*
 * Claims the entity extractor does not see (it names things; these say where and which): paths
 * with spaces or non-ASCII letters, routes, config keys, versions of dependencies, line numbers.
 */

type Span = [number, number];
type Partial = Omit<ExtractedClaim, 'negated'>;

const INLINE_CODE_RE = /`([^`\n]{1,400})`/g;
// The first segment has no blank, so `node scripts/build.mjs` stays a command.
const QUOTED_PATH_RE = /^(?:\.{1,2}\/|\/)?[^/\s`"']+\/(?:[^/`"']+\/)*[^/`"']*$/u;
const FILE_EXTENSION_RE = /\.[A-Za-z0-9]{1,10}$/;
/** A run of path characters holding a non-ASCII letter, a `/` and an extension. */
const UNICODE_PATH_RE =
  /(?<![\p{L}\p{N}_@.~/-])(?:\.{1,2}\/)?(?:[\p{L}\p{N}_@+.-]+\/)+[\p{L}\p{N}_@+.-]*\.[A-Za-z0-9]{1,10}(?![\p{L}\p{N}_])/gu;
const NON_ASCII_RE = /[^\p{ASCII}]/u;
const HTTP_ROUTE_RE = /\b(GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS)\s+`?(\/[\w\-./:{}<>*]*)/g;
const NAMED_ROUTE_RE = /(?<![\w./-])`?(\/[A-Za-z][\w\-/:{}]*)`?\s+(?:endpoint|route|handler|api)\b/gi;
const ROUTE_NOUN_RE = /\b(?:endpoint|route)\s+`?(\/[A-Za-z][\w\-/:{}]*)/gi;
const CONFIG_KEY_RE = /^[A-Za-z][\w-]*(?:\.[A-Za-z][\w-]*)+$/;
const FILE_LIKE_RE = /\.(?:json|jsonc|js|mjs|cjs|ts|tsx|jsx|md|ya?ml|toml|lock|txt|py|go|rs|sh|css|html)$/i;
const CONFIG_CUE_RE = /\b(?:settings?|config(?:uration)?|options?|keys?|flags?)\b/i;
const VERSIONED_PACKAGE_RE =
  /(?<![\w@/.-])(@[a-z0-9][\w.-]*\/[a-z0-9][\w.-]*|[a-z][\w.-]*)@([\^~]?\d+(?:\.(?:\d+|x))*(?:-[\w.]+)?)/g;
const LINE_SUFFIX_RE = /^(?::(\d{1,7})(?:[:-]\d{1,7})?|#L(\d{1,7}))/;

/** Backticked paths that hold spaces or non-ASCII letters, and such paths in plain prose. */
export function matchSpecialPaths(text: string, out: Partial[]): void {
  INLINE_CODE_RE.lastIndex = 0;
  for (let m = INLINE_CODE_RE.exec(text); m !== null; m = INLINE_CODE_RE.exec(text)) {
    const content = (m[1] as string).trim();
    if (!/\s/.test(content) && !NON_ASCII_RE.test(content)) continue;
    if (!QUOTED_PATH_RE.test(content) || !(FILE_EXTENSION_RE.test(content) || content.endsWith('/')))
      continue;
    const start = m.index + 1 + (m[1] as string).indexOf(content);
    out.push(withLine(text, { kind: 'path', subject: content, span: [start, start + content.length] }));
  }
  if (!NON_ASCII_RE.test(text)) return;
  UNICODE_PATH_RE.lastIndex = 0;
  for (let m = UNICODE_PATH_RE.exec(text); m !== null; m = UNICODE_PATH_RE.exec(text)) {
    if (!NON_ASCII_RE.test(m[0])) continue;
    out.push(withLine(text, { kind: 'path', subject: m[0], span: [m.index, m.index + m[0].length] }));
  }
}

/**
 * `engram drift --fix` in inline code or on a shell line, for the project's own programs; also
 * the program alone (`npx engram`, `engram ./app.js`, `engram [options]`): it is still a program.
 * A word with a dot or slash after the program is a file it runs, never a sub-command.
 */
export function matchProjectCommands(text: string, programs: ReadonlySet<string>, out: Partial[]): void {
  if (programs.size === 0) return;
  const names = [...programs].map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const re = new RegExp(
    `(?:\`|^[ \\t]*(?:\\$[ \\t]+)?)(?:npx[ \\t]+)?((?:${names})(?=[ \\t]+(?:[a-z]|--?\\w|\\.{0,2}\\/|\\[)|\`)(?:[ \\t]+[a-z][\\w:-]*(?![\\w./]))?(?:[ \\t]+--?[\\w-]+(?:=[\\w.:/@-]+)?)*)`,
    'gm',
  );
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const command = (m[1] as string).trimEnd();
    const start = m.index + m[0].length - (m[1] as string).length;
    out.push({ kind: 'command', subject: command, span: [start, start + command.length] });
  }
}

/** `GET /users/:id`, "the /admin endpoint", "route /health". */
export function matchRoutes(text: string, out: Partial[]): void {
  HTTP_ROUTE_RE.lastIndex = 0;
  for (let m = HTTP_ROUTE_RE.exec(text); m !== null; m = HTTP_ROUTE_RE.exec(text)) {
    const route = m[2] as string;
    const start = m.index + m[0].length - route.length;
    out.push({ kind: 'route', subject: route, method: m[1], span: [start, start + route.length] });
  }
  for (const re of [NAMED_ROUTE_RE, ROUTE_NOUN_RE]) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const route = m[1] as string;
      const start = m.index + m[0].indexOf(route);
      out.push({ kind: 'route', subject: route, span: [start, start + route.length] });
    }
  }
}

/** A backticked dotted key next to a word like "setting", "option" or "config". */
export function matchConfigKeys(text: string, out: Partial[]): void {
  INLINE_CODE_RE.lastIndex = 0;
  for (let m = INLINE_CODE_RE.exec(text); m !== null; m = INLINE_CODE_RE.exec(text)) {
    const key = m[1] as string;
    if (!CONFIG_KEY_RE.test(key) || FILE_LIKE_RE.test(key)) continue;
    // Already a claim with its value and file (configValueMatcher).
    if (out.some((c) => c.kind === 'config' && overlaps(c.span, [m.index + 1, m.index + 1 + key.length])))
      continue;
    const around = text.slice(Math.max(0, m.index - 40), Math.min(text.length, m.index + m[0].length + 30));
    if (!CONFIG_CUE_RE.test(around)) continue;
    out.push({ kind: 'config', subject: key, span: [m.index + 1, m.index + 1 + key.length] });
  }
}

/** `express@4.19.2`, `@types/node@20`. */
export function matchVersionedPackages(text: string, out: Partial[]): void {
  if (!text.includes('@')) return;
  VERSIONED_PACKAGE_RE.lastIndex = 0;
  for (let m = VERSIONED_PACKAGE_RE.exec(text); m !== null; m = VERSIONED_PACKAGE_RE.exec(text)) {
    out.push({
      kind: 'dependency',
      subject: m[1] as string,
      version: (m[2] as string).replace(/^[\^~]/, ''),
      span: [m.index, m.index + m[0].length],
    });
  }
}

/** The version written right after a package name: `lodash 4.17`, `React v18`. */
export function versionAfter(text: string, end: number): string | undefined {
  const m = /^\s+v?(\d+(?:\.(?:\d+|x))*)(?![\w.])/.exec(text.slice(end, end + 24));
  return m?.[1];
}

/** A path's claim with the line number written right after it, if any. */
export function withLine(text: string, claim: Partial): Partial {
  const m = LINE_SUFFIX_RE.exec(text.slice(claim.span[1], claim.span[1] + 20));
  const line = m ? Number(m[1] ?? m[2]) : undefined;
  return line === undefined ? claim : { ...claim, line };
}

export function overlaps(a: Span, b: Span): boolean {
  return a[0] < b[1] && b[0] < a[1];
}
