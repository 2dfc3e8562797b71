/**
 * Whether `require()` of a package's entry points loads CommonJS, as its package.json says. A
 * memory that requires the project and calls what it gets (`const thelib = require('thelib');
 * thelib()`) goes stale when the package becomes ESM only (`"type": "module"` and no `require`
 * condition): a `require()` of ES modules gives a namespace object on the Node versions that allow
 * it at all (members still work on it, the call does not), and throws on the others.
 */
import type { FileReader } from './fileHistory';

export interface ModuleFormat {
  /** `"type": "module"`: a `.js` file of the package is an ES module. */
  esm: boolean;
  /**
   * Per `exports` key (`.`, `./helpers`, `./*`): the file the conditions a `require()` matches
   * lead to (null: none, the entry is for `import` only); undefined without an `exports` map.
   */
  targets?: Record<string, string | null>;
  /**
   * The `exports` keys whose target a `require` condition names: the package says that file is
   * for `require()`, so it is CommonJS even under `"type": "module"` (a build writes a nested
   * package.json, not in git, that says so).
   */
  forRequire?: string[];
  /** The `main` field, which names the root's file without an `exports` map. */
  main?: string;
}

/** The conditions Node's `require()` matches, besides the ones it never reaches (`import`, `types`). */
const REQUIRE_CONDITIONS = new Set(['require', 'node', 'default']);

/** Whether a file of the package is CommonJS by its extension and the package's type. */
export function isCommonJsFile(file: string, esm: boolean): boolean {
  if (file.endsWith('.cjs') || file.endsWith('.json') || file.endsWith('.node')) return true;
  if (file.endsWith('.mjs')) return false;
  return !esm;
}

interface RequireTarget {
  file: string;
  /** Reached through a `require` condition. */
  named: boolean;
}

/**
 * Where a `require()` (or, with other `conditions`, an import) lands in one `exports` value: a
 * target string, a list, or conditions (in their order).
 */
function requireTarget(
  value: unknown,
  named = false,
  conditions: ReadonlySet<string> = REQUIRE_CONDITIONS,
): RequireTarget | undefined {
  if (typeof value === 'string') return { file: value, named };
  if (Array.isArray(value)) {
    for (const item of value) {
      const target = requireTarget(item, named, conditions);
      if (target !== undefined) return target;
    }
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  for (const [condition, nested] of Object.entries(value)) {
    if (!conditions.has(condition)) continue;
    const target = requireTarget(nested, named || condition === 'require', conditions);
    if (target !== undefined) return target;
  }
  return undefined;
}

/** A package.json's format with its `exports` targets as the given conditions resolve them. */
function readFormat(
  text: string | undefined,
  conditions: ReadonlySet<string>,
): ModuleFormat | undefined | 'unreadable' {
  if (text === undefined) return undefined;
  const json = entryFields(text);
  if (json === 'unreadable') return json;
  const esm = json.type === 'module';
  const map = json.exports;
  if (map === undefined || map === null)
    return { esm, ...(typeof json.main === 'string' ? { main: json.main } : {}) };
  const targets: Record<string, string | null> = {};
  const forRequire: string[] = [];
  for (const [key, value] of exportsEntries(map)) {
    const target = requireTarget(value, false, conditions);
    targets[key] = target?.file ?? null;
    if (target?.named === true) forRequire.push(key);
  }
  return { esm, targets, ...(forRequire.length > 0 ? { forRequire } : {}) };
}

export const MODULE_FORMAT: FileReader<ModuleFormat | undefined> = {
  // The name keys stored answers: changed whenever what is read changes.
  name: 'package module format (require condition)',
  read: (text) => readFormat(text, REQUIRE_CONDITIONS),
};

/** The conditions Node's `import` matches (the map's order decides among them). */
const IMPORT_CONDITIONS = new Set(['import', 'node', 'default']);

/** The same reading for what an `import` of the package reaches (targets by import conditions). */
export const IMPORT_FORMAT: FileReader<ModuleFormat | undefined> = {
  name: 'package module format (import condition)',
  read: (text) => readFormat(text, IMPORT_CONDITIONS),
};

/** The fields of a package.json that say where its entries are. */
interface EntryFields {
  type?: unknown;
  exports?: unknown;
  main?: unknown;
}

function entryFields(text: string): EntryFields | 'unreadable' {
  try {
    return JSON.parse(text) as EntryFields;
  } catch {
    return 'unreadable';
  }
}

/** An `exports` map as (subpath, value) pairs: a string, a list or a conditions object is the root's. */
function exportsEntries(map: unknown): Array<[string, unknown]> {
  return typeof map === 'object' &&
    map !== null &&
    !Array.isArray(map) &&
    Object.keys(map).some((k) => k.startsWith('.'))
    ? Object.entries(map)
    : [['.', map]];
}

/** The `exports` key that offers `sub` (`./helpers`): itself, or a `*` pattern matching it. */
export function exportsKeyFor(keys: readonly string[], sub: string): string | undefined {
  return keys.find((key) => {
    if (!key.includes('*')) return key === sub || key === `${sub}.js`;
    const [head, tail = ''] = key.split('*') as [string, string?];
    return sub.startsWith(head) && sub.endsWith(tail) && sub.length >= head.length + tail.length;
  });
}

/**
 * The file a `require()` of `sub` (`.`, `./helpers`) lands on: the `exports` map's target (null:
 * none for `require`), else `main` or `index.js` for the root and the subpath's own file, `.js`
 * added where no extension is written (as Node tries it first); undefined when the map does not
 * offer `sub`.
 */
export function requireTargetFor(format: ModuleFormat, sub: string): string | null | undefined {
  if (format.targets !== undefined) {
    const key = exportsKeyFor(Object.keys(format.targets), sub);
    return key === undefined ? undefined : format.targets[key];
  }
  const file = sub === '.' ? (format.main ?? 'index.js') : sub;
  return /\.[cm]?js$|\.json$|\.node$/.test(file) ? file : `${file}.js`;
}

/** Whether a `require()` of `sub` loads CommonJS: undefined when the package does not offer `sub`. */
export function loadsCommonJs(format: ModuleFormat, sub: string): boolean | undefined {
  const target = requireTargetFor(format, sub);
  if (target === undefined) return undefined;
  if (target === null) return false;
  const key = format.targets === undefined ? undefined : exportsKeyFor(Object.keys(format.targets), sub);
  return (
    (key !== undefined && format.forRequire?.includes(key) === true) || isCommonJsFile(target, format.esm)
  );
}
