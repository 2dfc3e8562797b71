import path from 'node:path';
import type { GrammarLanguage } from './languages';
import { dirOf, isUnder, joinInside } from './resolveContext';
import type { ResolveContext } from './resolveContext';

type Resolver = (context: ResolveContext, from: string, specifier: string) => string | null;

/**
 * The workspace file an import names, or null (a package, the standard library, a namespace, or
 * a file outside the scan). Pure string work on the file list: it never touches the disk, so it
 * runs the same in the scan worker and on the caller's side after renames and deletions.
 */
export function resolveImport(
  context: ResolveContext,
  language: GrammarLanguage,
  from: string,
  specifier: string,
): string | null {
  return RESOLVERS[language](context, from, specifier);
}

const SCRIPT_EXTENSIONS = ['.ts', '.tsx', '.d.ts', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

/** A file as written, with a script extension, or as a directory's index file. */
function scriptFile(context: ResolveContext, base: string | undefined): string | null {
  if (base === undefined) return null;
  const candidates = [base, ...SCRIPT_EXTENSIONS.map((ext) => base + ext)];
  // TypeScript's ESM style imports './x.js' for the source './x.ts'.
  const withoutJs = /\.(m|c)?jsx?$/.exec(base) ? base.replace(/\.(m|c)?jsx?$/, '') : undefined;
  if (withoutJs !== undefined) candidates.push(...SCRIPT_EXTENSIONS.map((ext) => withoutJs + ext));
  candidates.push(...SCRIPT_EXTENSIONS.map((ext) => `${base}/index${ext}`));
  return candidates.find((candidate) => context.files.has(candidate)) ?? null;
}

/** Relative paths, then tsconfig `paths` and `baseUrl` of the nearest config above the file. */
const ecmaScript: Resolver = (context, from, specifier) => {
  if (specifier.startsWith('.')) return scriptFile(context, joinInside(dirOf(from), specifier));
  const mapping = context.pathMappings.find((m) => isUnder(from, m.directory));
  if (!mapping) return null;
  const base = joinInside(mapping.directory, mapping.baseUrl ?? '.');
  for (const [pattern, targets] of Object.entries(mapping.paths)) {
    const star = pattern.indexOf('*');
    const prefix = star < 0 ? pattern : pattern.slice(0, star);
    const suffix = star < 0 ? '' : pattern.slice(star + 1);
    const matches =
      star < 0 ? specifier === pattern : specifier.startsWith(prefix) && specifier.endsWith(suffix);
    if (!matches) continue;
    const captured = star < 0 ? '' : specifier.slice(prefix.length, specifier.length - suffix.length);
    for (const target of targets) {
      const found = scriptFile(context, joinInside(base ?? '', target.replace('*', captured)));
      if (found) return found;
    }
  }
  return mapping.baseUrl !== null ? scriptFile(context, joinInside(base ?? '', specifier)) : null;
};

/** `.mod` and `..mod` from the file's package; `a.b` from the root or a `src/` layout. */
const python: Resolver = (context, from, specifier) => {
  const dots = /^\.*/.exec(specifier)?.[0].length ?? 0;
  const modulePath = specifier.slice(dots).split('.').filter(Boolean).join('/');
  const candidates = (base: string | undefined) =>
    base === undefined
      ? []
      : modulePath === ''
        ? [`${base}/__init__.py`]
        : [`${base}.py`, `${base}/__init__.py`];
  if (dots > 0) {
    let directory: string | undefined = dirOf(from);
    for (let up = 1; up < dots && directory !== undefined; up++) directory = joinInside(directory, '..');
    if (directory === undefined) return null;
    const base = modulePath === '' ? directory : joinInside(directory, modulePath);
    return candidates(base).find((c) => context.files.has(c.replace(/^\//, ''))) ?? null;
  }
  for (const root of ['', 'src', 'lib']) {
    const found = candidates(joinInside(root, modulePath)).find((c) => context.files.has(c));
    if (found) return found;
  }
  return null;
};

/** Paths under the module of the nearest go.mod resolve to that package's first source file. */
const go: Resolver = (context, from, specifier) => {
  const owner = context.goModules.find((m) => isUnder(from, m.directory));
  if (!owner || !(specifier === owner.module || specifier.startsWith(`${owner.module}/`))) return null;
  const packageDir = joinInside(owner.directory, specifier.slice(owner.module.length + 1));
  if (packageDir === undefined) return null;
  const sources = (context.byDirectory.get(packageDir) ?? [])
    .filter((f) => f.endsWith('.go') && !f.endsWith('_test.go'))
    .sort();
  return sources[0] ?? null;
};

/** `mod x;`, and `crate::`/`self::`/`super::` paths, to the module file that holds them. */
const rust: Resolver = (context, from, specifier) => {
  const moduleFile = (directory: string | undefined, segments: string[]) => {
    // `crate::store::Store` names an item in store.rs: try the longest module path first.
    for (let n = segments.length; n > 0 && directory !== undefined; n--) {
      const base = joinInside(directory, segments.slice(0, n).join('/'));
      const found = base && [`${base}.rs`, `${base}/mod.rs`].find((c) => context.files.has(c));
      if (found) return found;
    }
    return null;
  };
  const ownDirectory = () => {
    const name = path.posix.basename(from, '.rs');
    return ['lib', 'main', 'mod'].includes(name) ? dirOf(from) : joinInside(dirOf(from), name);
  };
  if (specifier.startsWith('mod:')) return moduleFile(ownDirectory(), [specifier.slice(4)]);
  const segments = specifier.replace(/\{.*$/, '').split('::').filter(Boolean);
  const head = segments.shift();
  if (head === 'crate') {
    const crate = context.crateRoots.find((root) => isUnder(from, root)) ?? '';
    return moduleFile(joinInside(crate, 'src'), segments);
  }
  if (head === 'self') return moduleFile(ownDirectory(), segments);
  if (head === 'super') return moduleFile(dirOf(from), segments);
  return null;
};

/** A file whose path ends with the given suffix, if exactly one does. */
function uniqueSuffix(context: ResolveContext, suffix: string): string | null {
  const candidates = (context.byFileName.get(path.posix.basename(suffix)) ?? []).filter(
    (f) => f === suffix || f.endsWith(`/${suffix}`),
  );
  return candidates.length === 1 ? (candidates[0] ?? null) : null;
}

/** `com.acme.model.Order` is the file ending in com/acme/model/Order.java (any source root). */
const java: Resolver = (context, _from, specifier) =>
  specifier.endsWith('*') ? null : uniqueSuffix(context, `${specifier.replace(/\./g, '/')}.java`);

/** Quoted includes: beside the file, from the root, or by a unique path suffix; `<system>` ones are not ours. */
const cFamily: Resolver = (context, from, specifier) => {
  if (specifier.startsWith('<')) return null;
  for (const base of [dirOf(from), '']) {
    const candidate = joinInside(base, specifier);
    if (candidate !== undefined && context.files.has(candidate)) return candidate;
  }
  return uniqueSuffix(context, specifier.replace(/^(\.\.?\/)+/, ''));
};

/** `require_relative` beside the file; `require` from lib/ or the root. */
const ruby: Resolver = (context, from, specifier) => {
  const withExtension = (p: string | undefined) =>
    p === undefined ? undefined : p.endsWith('.rb') ? p : `${p}.rb`;
  const candidates = specifier.startsWith('relative:')
    ? [withExtension(joinInside(dirOf(from), specifier.slice('relative:'.length)))]
    : [withExtension(joinInside('lib', specifier)), withExtension(joinInside('', specifier))];
  return candidates.find((c): c is string => c !== undefined && context.files.has(c)) ?? null;
};

/** `use App\Mail\Transport` by PSR-4 path suffix; `require __DIR__ . '/x.php'` beside the file. */
const php: Resolver = (context, from, specifier) => {
  const literal = /['"]([^'"]+\.php)['"]\s*\)?\s*$/.exec(specifier)?.[1];
  if (literal !== undefined) {
    const relative = literal.replace(/^\//, '');
    for (const base of [dirOf(from), '']) {
      const candidate = joinInside(base, relative);
      if (candidate !== undefined && context.files.has(candidate)) return candidate;
    }
    return null;
  }
  const segments = specifier
    .replace(/\s+as\s+\w+$/i, '')
    .replace(/^\\/, '')
    .split('\\');
  for (let start = 0; start < segments.length; start++) {
    const found = uniqueSuffix(context, `${segments.slice(start).join('/')}.php`);
    if (found) return found;
  }
  return null;
};

/** `source ./lib.sh` or `. "$(dirname "$0")/env.sh"`: beside the script, or from the root. */
const bash: Resolver = (context, from, specifier) => {
  const cleaned = specifier
    .replace(/^["']|["']$/g, '')
    .replace(
      /^(\$\(dirname\s+"?\$(0|\{BASH_SOURCE\[0\]\}|BASH_SOURCE)"?\)|\$\{BASH_SOURCE%\/\*\}|\$SCRIPT_DIR|\$DIR)\/?/,
      '',
    );
  if (cleaned.includes('$')) return null;
  for (const base of [dirOf(from), '']) {
    const candidate = joinInside(base, cleaned);
    if (candidate !== undefined && context.files.has(candidate)) return candidate;
  }
  return null;
};

const RESOLVERS: Record<GrammarLanguage, Resolver> = {
  typescript: ecmaScript,
  tsx: ecmaScript,
  javascript: ecmaScript,
  python,
  go,
  rust,
  java,
  // C# imports namespaces, which map to no file.
  'c-sharp': () => null,
  cpp: cFamily,
  ruby,
  php,
  bash,
};
