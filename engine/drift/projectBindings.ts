import { packageRootOf } from '../extract/packageReferences';
import { exampleMembers } from './exampleMembers';

/**
 * The names an example binds to the project itself: the package's own name (`pino.destination()`),
 * what it is imported or required as (`const log = require('pino')`, `import { a, b as c } from
 * 'pkg'`), and what those return (`const logger = pino()`, `new Koa()`). A call through one of
 * them uses the project's API; any other name in an example is the reader's own code.
 */
export interface ProjectBindings {
  /** Receivers of the project's API: `pino` in `pino.final()`, `logger` in `logger.child()`. */
  receivers: Set<string>;
  /** Names imported from the project: `{ a, b as c }` gives a and c. */
  imported: Set<string>;
  /**
   * Imported names the example renamed (`{ v4 as uuidv4 }`, `{ v4: uuidv4 } = require()`), each
   * with the export it names: the reader's own name for it, never a name the project has.
   */
  aliases: Map<string, string>;
  /** Names the example declares itself (`const x`, `function f`): never the project's. */
  declared: Set<string>;
  /** Members of the classes and interfaces the example declares (see exampleMembers). */
  ownMembers: Set<string>;
  /**
   * Names imported or required from another package or a URL (`import RefreshRuntime from
   * 'http://localhost:3000/@react-refresh'`): their members are that module's API, not the project's.
   */
  foreign: Set<string>;
  /**
   * Names that hold the package itself (`pino`, `const P = require('pino')`), each with the
   * package's own name: `P(dest)` calls the package, unlike `logger(x)` on what it returned.
   */
  packageItself: Map<string, string>;
}

const IDENT = '[A-Za-z_$][\\w$]*';

export function defaultReceivers(packages: ReadonlySet<string>): Set<string> {
  const receivers = new Set<string>();
  for (const name of packages) {
    const base = (name.split('/').pop() ?? name).replace(/^@/, '');
    const camel = base.replace(/[-_.](\w)/g, (_m, c: string) => c.toUpperCase());
    if (!/^[A-Za-z_$][\w$]*$/.test(camel)) continue;
    receivers.add(camel);
    receivers.add(camel[0]?.toUpperCase() + camel.slice(1));
  }
  return receivers;
}

/** The package's own name as code writes it (`pino`, `fooBar` for `foo-bar`), if it is one. */
function canonicalReceivers(packages: ReadonlySet<string>): Map<string, string> {
  const names = new Map<string, string>();
  const all = [...defaultReceivers(packages)];
  for (const name of all) names.set(name, all[0] as string);
  return names;
}

export function projectBindings(code: string, packages: ReadonlySet<string>): ProjectBindings {
  const receivers = defaultReceivers(packages);
  const packageItself = canonicalReceivers(packages);
  const own = [...packageItself.keys()][0];
  const imported = new Set<string>();
  const aliases = new Map<string, string>();
  const declared = new Set([
    ...[...code.matchAll(/\b(?:function\*?|const|let|var|class)\s+([A-Za-z_$][\w$]*)/g)].map(
      (m) => m[1] as string,
    ),
    ...functionParameters(code),
  ]);
  const foreign = foreignBindings(code, packages);
  const ownMembers = exampleMembers(code);
  if (packages.size === 0)
    return { receivers, imported, aliases, declared, ownMembers, foreign, packageItself };
  const names = packageNamesPattern(packages);
  const source = `['"](?:${names})(?:/[^'"]*)?['"]`;
  const defaultImport = new RegExp(
    `\\bimport\\s+(?:\\*\\s+as\\s+)?(${IDENT})\\s*(?:,\\s*\\{([^}]*)\\})?\\s*from\\s*${source}`,
    'g',
  );
  const namedImport = new RegExp(`\\bimport\\s*\\{([^}]*)\\}\\s*from\\s*${source}`, 'g');
  // Not `var it = require('mocha').it`: that holds one export, not the package.
  const required = new RegExp(
    `(?:const|let|var)\\s+(${IDENT})\\s*=\\s*(?:await\\s+import|require)\\(\\s*${source}\\s*\\)(?!\\s*[.[(])`,
    'g',
  );
  const destructured = new RegExp(
    `(?:const|let|var)\\s*\\{([^}]*)\\}\\s*=\\s*(?:await\\s+import|require)\\(\\s*${source}\\s*\\)`,
    'g',
  );
  for (const m of code.matchAll(defaultImport)) {
    receivers.add(m[1] as string);
    if (own !== undefined) packageItself.set(m[1] as string, own);
    if (m[2]) addNamed(m[2], imported, aliases);
  }
  for (const m of code.matchAll(namedImport)) addNamed(m[1] as string, imported, aliases);
  for (const m of code.matchAll(required)) {
    receivers.add(m[1] as string);
    if (own !== undefined) packageItself.set(m[1] as string, own);
  }
  for (const m of code.matchAll(destructured)) addNamed(m[1] as string, imported, aliases);
  // What the project's functions and constructors return: a few rounds reach `child` of `logger`.
  const assigned = new RegExp(
    `(?:const|let|var)\\s+(${IDENT})\\s*=\\s*(?:await\\s+)?(?:new\\s+)?(${IDENT})\\b`,
    'g',
  );
  for (let round = 0; round < 3; round++) {
    const before = receivers.size + foreign.size;
    for (const m of code.matchAll(assigned)) {
      const from = m[2] as string;
      if (receivers.has(from) || imported.has(from)) receivers.add(m[1] as string);
      // `let app = express()`: what another module returned is that module's too.
      else if (foreign.has(from)) foreign.add(m[1] as string);
    }
    if (receivers.size + foreign.size === before) break;
  }
  for (const name of callbackParametersOf(code, foreign)) foreign.add(name);
  for (const name of [...receivers, ...imported]) {
    declared.delete(name);
    foreign.delete(name);
  }
  return { receivers, imported, aliases, declared, ownMembers, foreign, packageItself };
}

/** Any import or require of a module, with the names it binds. */
const ANY_IMPORT_RE =
  /\bimport\s+(?:(?:\*\s+as\s+)?([A-Za-z_$][\w$]*)\s*,?\s*)?(?:\{([^}]*)\})?\s*from\s*['"]([^'"]+)['"]|(?:const|let|var)\s+(?:([A-Za-z_$][\w$]*)|\{([^}]*)\})\s*=\s*(?:await\s+import|require)\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The names an example binds to modules other than the project's packages (see ProjectBindings.foreign). */
function foreignBindings(code: string, packages: ReadonlySet<string>): Set<string> {
  const foreign = new Set<string>();
  if (!code.includes('import') && !code.includes('require')) return foreign;
  for (const m of code.matchAll(ANY_IMPORT_RE)) {
    const source = (m[3] ?? m[6]) as string;
    // A relative path may be the project's own file; the project's packages are its API.
    if (source.startsWith('.') || source.startsWith('/') || packages.has(packageRootOf(source).toLowerCase()))
      continue;
    const single = m[1] ?? m[4];
    if (single !== undefined) foreign.add(single);
    const list = m[2] ?? m[5];
    if (list !== undefined) addNamed(list, foreign, new Map());
  }
  return foreign;
}

/**
 * The parameters of a callback handed to another module on the line that calls it (`app.get('*',
 * (req, res) => ...)`): that module fills them in, so `res.end()` is its API too.
 */
function callbackParametersOf(code: string, foreign: ReadonlySet<string>): string[] {
  const names: string[] = [];
  for (const receiver of foreign) {
    const escaped = receiver.replace(/\$/g, '\\$');
    const call = new RegExp(
      `(?<![\\w$.])${escaped}(?:\\.[A-Za-z_$][\\w$]*)*\\s*\\([^\\n]*?(?:\\(([^()\\n]*)\\)\\s*=>|function\\s*[\\w$]*\\s*\\(([^()\\n]*)\\))`,
      'g',
    );
    for (const m of code.matchAll(call))
      for (const p of (m[1] ?? m[2] ?? '').matchAll(/(?:^|,)\s*(?:\.\.\.)?([A-Za-z_$][\w$]*)/g))
        names.push(p[1] as string);
  }
  return names;
}

/** The package names as one regular-expression alternation (`pino|@scope/lib`). */
export function packageNamesPattern(packages: ReadonlySet<string>): string {
  return [...packages].map((p) => p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|');
}

function addNamed(list: string, into: Set<string>, aliases: Map<string, string>): void {
  for (const part of list.split(',')) {
    const m = /^\s*(?:type\s+)?([A-Za-z_$][\w$]*)(?:\s*(?:as|:)\s*([A-Za-z_$][\w$]*))?\s*$/.exec(part);
    if (!m) continue;
    into.add((m[2] ?? m[1]) as string);
    if (m[2] !== undefined && m[2] !== m[1]) aliases.set(m[2], m[1] as string);
  }
}

/**
 * Parameters of the functions the example defines for itself, `const filter = function (pathname,
 * req)`, `function handler(a, b)` as a statement, `const f = (a) =>`: the reader's own names. Not
 * those of callbacks passed to a call (`app.use((ctx, next) => ...)`): the project fills those in.
 */
const OWN_FUNCTION_RE =
  /(?:\b(?:const|let|var)\s+[A-Za-z_$][\w$]*\s*=\s*(?:async\s+)?(?:function\*?\s*[\w$]*\s*\(([^()]*)\)|\(([^()]*)\)\s*=>|([A-Za-z_$][\w$]*)\s*=>))|(?:^[ \t]*(?:export\s+)?(?:async\s+)?function\*?\s+[A-Za-z_$][\w$]*\s*\(([^()]*)\))/gm;

function functionParameters(code: string): string[] {
  const names: string[] = [];
  for (const m of code.matchAll(OWN_FUNCTION_RE)) {
    const list = m[1] ?? m[2] ?? m[3] ?? m[4] ?? '';
    for (const name of list.matchAll(/(?:^|,)\s*(?:\.\.\.)?([A-Za-z_$][\w$]*)/g))
      names.push(name[1] as string);
  }
  return names;
}
