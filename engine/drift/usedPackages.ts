import type { ExtractedClaim } from './claimTypes';

type Partial = Omit<ExtractedClaim, 'negated'>;

/**
 * A use-verb followed, within a few words ("the high speed"), by a package written as code or as
 * a link's text: "is built on top of [`fast-redact`](...)", "uses [sonic-boom](...)", "relies on
 * `undici`". The entity extractor only knows packages it has seen; these name themselves by how
 * they are written. Whether the project is the one using it is decided later, with the clause
 * (claimContext's statesProjectUse), like every other dependency in prose.
 */
const USED_PACKAGE_RE =
  /\b(?:uses?|using|depends?\s+on|relies\s+on|(?:is\s+)?(?:built|implemented)\s+(?:on(?:\s+top\s+of)?|with|using)|builds?\s+on|wraps?|powered\s+by|(?:written|tested|run)\s+(?:with|using))\s+(?:the\s+|an?\s+)?(?:[A-Za-z-]+\s+){0,2}(?:\[`?|`)((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][a-z0-9_-]*)(?:`?(?:\s*⇗)?\]|`)/g;
/** The next item of a list after a used package: ", [`nyc`][nyc]", ", and `assume`", " or `b`". */
const NEXT_PACKAGE_RE =
  /^\s*(?:,\s*(?:and\s+|or\s+)?|\s(?:and|or)\s+)(?:\[`?|`)((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][a-z0-9_-]*)(?:`?(?:\s*⇗)?\]|`)/;
/** A link's target right after its text: `(https://...)` or a reference `[label]`. */
const LINK_TARGET_RE = /^\((\S+?)\)|^\[([^\]]+)\]/;
/** "... module", "... library": the words after say a package is meant. */
const PACKAGE_NOUN_RE = /^[`\]⇗\s]*(?:\([^)\s]*\)|\[[^\]\s]*\])?\s*(?:module|library|package|dependency)\b/i;
/** Programs and runtimes, never a dependency in package.json. */
const NOT_PACKAGES = new Set(['node', 'nodejs', 'npm', 'npx', 'pnpm', 'yarn', 'bun', 'deno', 'git']);

export function matchUsedPackages(text: string, out: Partial[]): void {
  USED_PACKAGE_RE.lastIndex = 0;
  for (let m = USED_PACKAGE_RE.exec(text); m !== null; m = USED_PACKAGE_RE.exec(text)) {
    // "written with [`mocha`][mocha], [`nyc`][nyc], and [`assume`][assume]": every item of the
    // list after the verb, each of which must say it is a package.
    let item: { name: string; start: number; end: number } | undefined = {
      name: m[1] as string,
      start: m.index + m[0].lastIndexOf(m[1] as string),
      end: m.index + m[0].length,
    };
    while (item) {
      if (!NOT_PACKAGES.has(item.name) && namesPackage(text, item.name, item.end))
        out.push({
          kind: 'dependency',
          subject: item.name,
          span: [item.start, item.start + item.name.length],
        });
      item = nextItem(text, item.end);
    }
  }
}

function nextItem(text: string, end: number): { name: string; start: number; end: number } | undefined {
  const from = end + (LINK_TARGET_RE.exec(text.slice(end, end + 200))?.[0].length ?? 0);
  const next = NEXT_PACKAGE_RE.exec(text.slice(from, from + 200));
  if (!next) return undefined;
  const name = next[1] as string;
  return { name, start: from + next[0].lastIndexOf(name), end: from + next[0].length };
}

/**
 * Code after a use-verb is as often a header, an event or the project's own function (`uses the
 * \`content-type\` header`, `uses \`write\``): a package must say so by a scope, by a link to
 * its page (or an npm reference), or by a noun after it ("the `debug` module").
 */
function namesPackage(text: string, name: string, end: number): boolean {
  if (name.startsWith('@')) return true;
  const after = text.slice(end, end + 120);
  const link = LINK_TARGET_RE.exec(after);
  const target = link?.[1] ?? link?.[2];
  // A reference link labelled with the name itself (`[\`mocha\`][mocha]`) points at its home page.
  if (target !== undefined && (target.endsWith(`/${name}`) || /npm/i.test(target) || target === name))
    return true;
  return PACKAGE_NOUN_RE.test(after);
}

/**
 * A repository or npm page named after the package: `anymatch`, and the names Node packages'
 * repositories often take, `node-http-proxy` for http-proxy, `marked.js` or `markedjs` for marked.
 */
function isPackagePage(page: string, name: string): boolean {
  return [name, `node-${name}`, `${name}.js`, `${name}js`].includes(page);
}

/**
 * "(e.g. [rollup-plugin-string](...))", "such as [x](...)": one package of a kind the reader may
 * pick, even when the project itself happens to have it among its devDependencies.
 */
const EXAMPLE_BEFORE_RE = /\b(?:e\.\s?g\.?|for\s+(?:example|instance)|such\s+as|like)[,:]?\s*\[?$/i;

/**
 * `[anymatch](https://github.com/es128/anymatch)`, `[\`debug\`](https://www.npmjs.com/package/debug)`,
 * the name with a noun or two in the text (`[http-proxy events](https://github.com/nodejitsu/node-http-proxy#...)`),
 * or the name as code right before a link to its page (`` `http-proxy` [options](...node-http-proxy#options) ``).
 */
const PACKAGE_LINK_RE =
  /(?:`((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][a-z0-9._-]*)`\s+\[[^\]\n]{1,40}\]|\[`?((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][a-z0-9._-]*)`?(?:\s+[a-z]+){0,2}\])\(https?:\/\/(?:github\.com\/[\w.-]+\/([\w.-]+)\/?|(?:www\.)?npmjs\.(?:com|org)\/package\/((?:@[\w.-]+\/)?[\w.-]+)\/?)(?:#[^)\s]*)?\)/g;

/**
 * A link whose text is a package's name and whose target is that package's repository or npm page
 * ("ignored ([anymatch](https://github.com/es128/anymatch)-compatible definition)"): the text
 * names the package as such. It is this project's dependency only if its manifest declared it
 * when the memory was written (usedAs), so a link to a package the reader may pick costs nothing.
 */
export function matchPackageLinks(text: string, out: Partial[]): void {
  if (!text.includes('](http')) return;
  PACKAGE_LINK_RE.lastIndex = 0;
  for (let m = PACKAGE_LINK_RE.exec(text); m !== null; m = PACKAGE_LINK_RE.exec(text)) {
    const name = (m[1] ?? m[2]) as string;
    const page = (m[3] ?? m[4] ?? '').replace(/\.git$/, '').toLowerCase();
    if (NOT_PACKAGES.has(name) || !isPackagePage(page, name.replace(/^@[^/]+\//, ''))) continue;
    if (EXAMPLE_BEFORE_RE.test(text.slice(Math.max(0, m.index - 30), m.index))) continue;
    const start = m.index + m[0].indexOf(name);
    out.push({ kind: 'dependency', subject: name, span: [start, start + name.length], usedAs: 'package' });
  }
}

/**
 * "subscribe to http-proxy's `open` event", "Chokidar's polling", "`debug`'s output": a package
 * whose events, options or behaviour the text speaks of is one the project works through. Like a
 * link to a package's page, it is this project's dependency only if its manifest declared it when
 * the memory was written (usedAs), so "Express's router" in a guide for another stack costs nothing.
 */
const POSSESSIVE_RE =
  /(?<![\w@/.`-])`?((?:@[a-z0-9][\w.-]*\/)?(?:[a-z0-9][a-z0-9._-]*|[A-Z][a-z0-9]+))`?['\u2019]s\b/g;
/** Contractions ("it's", "that's") and pronouns: never a package. */
const NOT_POSSESSORS = new Set([
  'it',
  'that',
  'there',
  'here',
  'what',
  'who',
  'let',
  'he',
  'she',
  'one',
  'where',
  'how',
  'why',
  'when',
  'this',
  'everything',
  'nothing',
  'today',
  'everyone',
]);

export function matchPossessivePackages(text: string, out: Partial[]): void {
  if (!/['\u2019]s\b/.test(text)) return;
  POSSESSIVE_RE.lastIndex = 0;
  for (let m = POSSESSIVE_RE.exec(text); m !== null; m = POSSESSIVE_RE.exec(text)) {
    const written = m[1] as string;
    const name = written.toLowerCase();
    if (name.length < 2 || NOT_PACKAGES.has(name) || NOT_POSSESSORS.has(name)) continue;
    // "the handler's promise", "the object's keys": a plain lower-case word is a common noun; a
    // package names itself by a hyphen or dot (`http-proxy`), a capital (Chokidar) or as code.
    if (!m[0].startsWith('`') && /^[a-z0-9]+$/.test(written)) continue;
    const start = m.index + m[0].indexOf(written);
    out.push({ kind: 'dependency', subject: name, span: [start, start + written.length], usedAs: 'package' });
  }
}
