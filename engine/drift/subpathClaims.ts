import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ClaimCheck, ExtractedClaim } from './claimTypes';
import { ok, unverifiable, withCommit } from './attribution';
import type { ClaimUnderCheck } from './attribution';
import { defaultExportGone } from './defaultExport';
import { codeFilesHolding } from './evidenceFiles';
import type { FileReader } from './fileHistory';
import { exportsKeyFor, loadsCommonJs, MODULE_FORMAT, requireTargetFor } from './moduleFormat';
import type { ModuleFormat } from './moduleFormat';
import { verifyPathClaim } from './pathClaims';
import { packageNamesPattern } from './projectBindings';
import { packageRootOf } from '../extract/packageReferences';
import type { VerificationContext } from './verificationContext';
import { verifyPublishedClaim } from './publishedPackage';
import { pathState, readNow } from './workspacePaths';

type Partial = Omit<ExtractedClaim, 'negated'>;

/**
 * `pino/file` in inline code, or a string naming it in an example (`require('yargs/helpers')`,
 * `target: 'pino/file'`): the project's package offers that subpath to importers.
 */
export function matchSubpaths(text: string, packages: ReadonlySet<string>, out: Partial[]): void {
  if (packages.size === 0) return;
  const names = packageNamesPattern(packages);
  const re = new RegExp(`([\`'"])((?:${names})/[\\w.@-]+(?:/[\\w.@-]+)*)\\1`, 'g');
  if (text.includes('/')) {
    for (const m of text.matchAll(re)) {
      const subject = m[2] as string;
      const start = (m.index ?? 0) + 1;
      out.push({
        kind: 'subpath',
        subject,
        span: [start, start + subject.length],
        ...requirement(text, start - 1),
      });
    }
  }
  // `require('pino')`, `import x from 'pino'`: the package's main entry is importable.
  const root = new RegExp(
    `(?:\\brequire\\(\\s*|\\bimport\\(\\s*|\\bfrom\\s+|^import\\s+)(['"])(${names})\\1`,
    'gm',
  );
  for (const m of text.matchAll(root)) {
    const subject = m[2] as string;
    const start = (m.index ?? 0) + m[0].length - 1 - subject.length;
    out.push({
      kind: 'subpath',
      subject,
      span: [start, start + subject.length],
      ...requirement(text, start - 1),
    });
  }
}

/** What a `require()` or import of the string opening at `quote` needs of the entry (see ExtractedClaim). */
function requirement(text: string, quote: number): Pick<Partial, 'requiredCallable' | 'moduleCalled'> {
  if (requiredAndCalled(text, quote)) return { requiredCallable: true, moduleCalled: true };
  if (needsCommonJs(text, quote)) return { requiredCallable: true };
  return importedAndCalled(text, quote) ? { moduleCalled: true } : {};
}

/**
 * Whether the string opening at `quote` ends `import name from` (or `import name, { ... } from`)
 * and the text then calls `name(` or `new name(`: the entry's default export is the callable.
 */
function importedAndCalled(text: string, quote: number): boolean {
  const before = /\bimport\s+([A-Za-z_$][\w$]*)\s*(?:,\s*\{[^}]*\}\s*)?from\s+$/.exec(
    text.slice(Math.max(0, quote - 200), quote),
  );
  return before !== null && calledAfter(text, quote, before[1] as string);
}

/** Whether `name` is called (`name(`, `new name(`) after position `at`, not as a member (`x.name(`). */
function calledAfter(text: string, at: number, name: string): boolean {
  const escaped = name.replace(/\$/g, '\\$');
  return new RegExp(`(?<![\\w$.])(?:new\\s+)?${escaped}\\s*\\(`).test(text.slice(at));
}

/**
 * Whether the string opening at `quote` is required in a way only a CommonJS entry serves: the
 * module itself is called, or the text introduces the `require()` as the CommonJS way ("... or
 * for CommonJS:", "using CommonJS syntax") just before it, which claims CommonJS support even where
 * the destructured names would still work on an ES module's namespace.
 */
function needsCommonJs(text: string, quote: number): boolean {
  if (requiredAndCalled(text, quote)) return true;
  if (!/\brequire\(\s*$/.test(text.slice(Math.max(0, quote - 20), quote))) return false;
  return /\b(?:CommonJS|CJS)\b/i.test(introduction(text, quote));
}

/**
 * The words that introduce position `at`: inside a fenced code block, the block up to `at` and the
 * last line of prose before its fence; outside one, the line itself.
 */
function introduction(text: string, at: number): string {
  const before = text.slice(0, at);
  const fences = [...before.matchAll(/^\s*(?:```|~~~)/gm)];
  const lineStart = before.lastIndexOf('\n') + 1;
  if (fences.length % 2 === 0) return before.slice(lineStart);
  const fence = fences[fences.length - 1]?.index ?? 0;
  const prose = before.slice(0, fence).trimEnd();
  return before.slice(prose.lastIndexOf('\n') + 1);
}

/**
 * Whether the string opening at `quote` is `const name = require(...)` and the text then calls
 * `name(` or `new name(`: the module itself is used as a function, which only CommonJS gives.
 * Members (`name.parse()`) and destructuring work on an ES module's namespace too.
 */
function requiredAndCalled(text: string, quote: number): boolean {
  const before = /\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*require\(\s*$/.exec(
    text.slice(Math.max(0, quote - 80), quote),
  );
  // `require('mocha').describe`: the name holds one export, not the module.
  if (!before || !/^(['"])[^'"\n]*\1\s*\)(?!\s*[.[(])/.test(text.slice(quote))) return false;
  return calledAfter(text, quote, before[1] as string);
}

interface PackageEntry {
  /** The `exports` map's subpath keys (`./file`, `./*`), or undefined when there is no map. */
  exported: string[] | undefined;
  /** The `main` field: the package's entry without an `exports` map. */
  main?: string;
}

const PACKAGE_ENTRY: FileReader<PackageEntry | undefined> = {
  name: 'package exports',
  read(text) {
    if (text === undefined) return undefined;
    try {
      const json = JSON.parse(text) as { exports?: unknown; main?: unknown };
      const map = json.exports;
      if (map === undefined || map === null)
        return { exported: undefined, ...(typeof json.main === 'string' ? { main: json.main } : {}) };
      // A string or a conditions object exports the package's root only.
      if (typeof map !== 'object' || Array.isArray(map)) return { exported: ['.'] };
      const keys = Object.keys(map);
      return { exported: keys.some((k) => k.startsWith('.')) ? keys : ['.'] };
    } catch {
      return 'unreadable';
    }
  },
};

/** Whether an `exports` map offers `./sub` (a key, or a `*` pattern matching it). */
function exportsOffer(keys: readonly string[], sub: string): boolean {
  return exportsKeyFor(keys, sub) !== undefined;
}

const FILE_FORMS = ['', '.js', '.cjs', '.mjs', '.json', '/index.js', '/package.json'];

/**
 * With an `exports` map, the subpath holds while the map offers it (stale with the commit that
 * dropped it); without one, while a file answers to it as Node resolves (`file`, `file.js`,
 * `file/index.js`), a deletion or rename of that file being the change.
 */
export async function verifySubpathClaim(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
): Promise<ClaimCheck> {
  if (claim.published === true) {
    const { name, sub } = packageOf(claim.subject);
    return verifyPublishedClaim(ctx, claim, name, sub);
  }
  const check = await verifyOffered(ctx, claim);
  if (check.verdict !== 'ok' || (claim.requiredCallable !== true && claim.moduleCalled !== true))
    return check;
  const manifest = ctx.manifests.packageFiles.get(packageOf(claim.subject).name);
  if (manifest === undefined) return check;
  const gone = claim.requiredCallable === true ? await commonJsGone(ctx, claim, manifest) : undefined;
  if (gone !== undefined || claim.moduleCalled !== true) return gone ?? check;
  const how = claim.requiredCallable === true ? 'require' : 'import';
  return (await defaultExportGone(ctx, claim, manifest, packageOf(claim.subject).sub, how)) ?? check;
}

/** `thelib/helpers` -> the package (`thelib`, or `@scope/thelib`) and the subpath (`./helpers`, `.` for the root). */
function packageOf(subject: string): { name: string; sub: string } {
  const root = packageRootOf(subject);
  return { name: root.toLowerCase(), sub: `.${subject.slice(root.length)}` };
}

async function verifyOffered(ctx: VerificationContext, claim: ClaimUnderCheck): Promise<ClaimCheck> {
  // No slash: the package itself, i.e. its main entry (`.`).
  const { name, sub } = packageOf(claim.subject);
  const manifest = ctx.manifests.packageFiles.get(name);
  if (manifest === undefined) return unverifiable(`no package.json of ${name} in the workspace`);
  const dir = path.posix.dirname(manifest);
  const entry = readNow(ctx.root, manifest, PACKAGE_ENTRY);
  if (entry === undefined) return unverifiable(`${manifest} could not be read`);
  if (entry.exported !== undefined) {
    const keys = entry.exported;
    if (exportsOffer(keys, sub)) return ok('exported');
    const offeredOtherwise = sub === '.' ? undefined : await servedOtherwise(ctx, claim.subject, dir, sub);
    if (offeredOtherwise) return offeredOtherwise;
    const offered = (e: PackageEntry | undefined) =>
      e !== undefined && (e.exported === undefined ? true : exportsOffer(e.exported, sub));
    if ((await ctx.heldThen([manifest], claim.memoryValidFrom, PACKAGE_ENTRY, offered)) === false)
      return unverifiable('not exported when the memory was written either');
    const commit = await ctx.fileBreak(
      [manifest],
      claim.memoryValidFrom,
      PACKAGE_ENTRY,
      (e) => !offered(e),
      'every',
    );
    return withCommit({ verdict: 'stale', evidence: { reason: `not exported by ${manifest}` } }, commit);
  }
  const target = sub === '.' ? (entry.main ?? 'index.js') : sub;
  const files = FILE_FORMS.map((form) => path.posix.join(dir, `${target}${form}`));
  const found = files.find((file) => pathState(ctx.root, ctx.realRoot, file) === 'file');
  if (found !== undefined) return ok('a file answers to it', { foundIn: [found] });
  for (const file of files) {
    const check = await verifyPathClaim(ctx, { ...claim, kind: 'path', subject: file, negated: false });
    if (check.verdict === 'stale' || check.verdict === 'moved')
      return {
        verdict: 'stale',
        evidence: { ...check.evidence, reason: `${file} ${check.evidence.reason}` },
      };
  }
  return unverifiable(`no file answers to ${claim.subject}, and none did when the memory was written`);
}

/**
 * A type declaration file: nothing imports it at run time, so a text naming `vite/client.d.ts`
 * points at the file. A `.js` left out of the map is the map's point (importers are refused).
 */
const DECLARATION_FILE_RE = /\.d\.[cm]?ts$/;

/**
 * A subpath the `exports` map leaves out that is still there for its reader: the project's own
 * code names it as a string (`'vite/modulepreload-polyfill'`, a module its bundler plugin serves),
 * or it names a type declaration file the package still has (`vite/client.d.ts`).
 */
async function servedOtherwise(
  ctx: VerificationContext,
  subject: string,
  dir: string,
  sub: string,
): Promise<ClaimCheck | undefined> {
  const namedIn = await codeFilesHolding(ctx, [`'${subject}'`, `"${subject}"`]);
  if (namedIn.length > 0) return ok('the project serves it itself', { foundIn: namedIn });
  const file = path.posix.join(dir, sub);
  if (DECLARATION_FILE_RE.test(sub) && pathState(ctx.root, ctx.realRoot, file) === 'file')
    return ok('a file of the package', { foundIn: [file] });
  return undefined;
}

/**
 * `const thelib = require('thelib'); thelib(...)` in the memory: the entry must still load as
 * CommonJS. Stale with the commit that made it ES modules only (`"type": "module"` with `.js`
 * files, or `exports` conditions without `require`); nothing to say when it was not CommonJS when
 * the memory was written either, or when a package.json nearer to the file than the package's own
 * may give it another type.
 */
async function commonJsGone(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
  manifest: string,
): Promise<ClaimCheck | undefined> {
  const dir = path.posix.dirname(manifest);
  const { sub } = packageOf(claim.subject);
  const requirable = (format: ModuleFormat | undefined): boolean | undefined =>
    format === undefined ? undefined : loadsCommonJs(format, sub);
  const now = readNow(ctx.root, manifest, MODULE_FORMAT);
  if (now === undefined || requirable(now) !== false) return undefined;
  const target = requireTargetFor(now, sub);
  if (typeof target === 'string' && nearerManifest(ctx.root, dir, target)) return undefined;
  const held = await ctx.heldThen(
    [manifest],
    claim.memoryValidFrom,
    MODULE_FORMAT,
    (f) => requirable(f) === true,
  );
  if (held !== true) return undefined;
  const commit = await ctx.fileBreak(
    [manifest],
    claim.memoryValidFrom,
    MODULE_FORMAT,
    (f) => requirable(f) === false,
    'every',
  );
  return withCommit(
    {
      verdict: 'stale',
      evidence: { reason: `ES modules only (${manifest}): require() no longer loads it`, now: 'import' },
    },
    commit,
  );
}

/** A package.json between the package's and the file's folder (`dist/cjs/package.json` with its own type). */
function nearerManifest(root: string, packageDir: string, target: string): boolean {
  let dir = path.posix.dirname(path.posix.join(packageDir, target));
  while (dir !== packageDir && dir !== '.' && dir !== '/' && !dir.startsWith('..')) {
    if (existsSync(path.join(root, dir, 'package.json'))) return true;
    dir = path.posix.dirname(dir);
  }
  return false;
}
