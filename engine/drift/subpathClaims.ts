import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ClaimCheck, ExtractedClaim } from './claimTypes';
import { ok, unverifiable, withCommit } from './attribution';
import type { ClaimUnderCheck } from './attribution';
import type { FileReader } from './fileHistory';
import { verifyPathClaim } from './pathClaims';
import { packageNamesPattern } from './projectBindings';
import type { VerificationContext } from './verificationContext';
import { pathState } from './workspacePaths';

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
      out.push({ kind: 'subpath', subject, span: [start, start + subject.length] });
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
    out.push({ kind: 'subpath', subject, span: [start, start + subject.length] });
  }
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
  return keys.some((key) => {
    if (!key.includes('*')) return key === sub || key === `${sub}.js`;
    const [head, tail] = key.split('*') as [string, string];
    return (
      sub.startsWith(head) && sub.endsWith(tail ?? '') && sub.length >= head.length + (tail ?? '').length
    );
  });
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
  const scopeEnd = claim.subject.startsWith('@')
    ? claim.subject.indexOf('/', claim.subject.indexOf('/') + 1)
    : claim.subject.indexOf('/');
  // No slash: the package itself, i.e. its main entry (`.`).
  const slash = scopeEnd < 0 ? claim.subject.length : scopeEnd;
  const name = claim.subject.slice(0, slash).toLowerCase();
  const sub = `.${claim.subject.slice(slash)}`;
  const manifest = ctx.manifests.packageFiles.get(name);
  if (manifest === undefined) return unverifiable(`no package.json of ${name} in the workspace`);
  const dir = path.posix.dirname(manifest);
  let entry: PackageEntry | undefined;
  try {
    const read = PACKAGE_ENTRY.read(readFileSync(path.join(ctx.root, manifest), 'utf8'), manifest);
    entry = read === 'unreadable' ? undefined : read;
  } catch {
    entry = undefined;
  }
  if (entry === undefined) return unverifiable(`${manifest} could not be read`);
  if (entry.exported !== undefined) {
    const keys = entry.exported;
    if (exportsOffer(keys, sub)) return ok('exported');
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
