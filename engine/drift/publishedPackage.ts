import path from 'node:path';
import type { ClaimCheck, ExtractedClaim } from './claimTypes';
import { ok, unverifiable, withCommit } from './attribution';
import type { ClaimUnderCheck } from './attribution';
import type { FileReader } from './fileHistory';
import { verifyPathClaim } from './pathClaims';
import { packageNamesPattern } from './projectBindings';
import type { VerificationContext } from './verificationContext';
import { pathState, readNow } from './workspacePaths';

type Partial = Omit<ExtractedClaim, 'negated'>;

/*
 * The project's package as npm publishes it: a README tells the reader to install it by name
 * (`npm install thelib`), links its registry page, or loads a file of it from a CDN
 * (`https://unpkg.com/thelib/thelib.css`). Each claims that the package is published under that
 * name and, for a CDN file, that the published package holds that file: npm publishes the files
 * `files` lists (or the tracked ones), whatever the `exports` map offers importers.
 */

const INSTALL_RE =
  /(?:^|[\s`$>])(?:npm\s+(?:install|i|add)|yarn\s+(?:global\s+)?add|pnpm\s+(?:add|install|i)|bun\s+add)(?=\s)([^\n`]*)/g;
const VERSION_SUFFIX = String.raw`(?:@[\w.^~<>=*|-]+)?`;

/** Subpath claims (`published`) of the project's own package in install commands and URLs. */
export function matchPublishedPackage(text: string, packages: ReadonlySet<string>, out: Partial[]): void {
  if (packages.size === 0) return;
  const names = packageNamesPattern(packages);
  for (const m of text.matchAll(INSTALL_RE)) {
    const args = m[1] as string;
    const argsStart = (m.index ?? 0) + m[0].length - args.length;
    // Each argument of the command that is the package (a version after `@` aside); flags and other packages are the reader's.
    const own = new RegExp(`(?<=^|\\s)(${names})${VERSION_SUFFIX}(?=\\s|$)`, 'g');
    for (const a of args.matchAll(own)) {
      const start = argsStart + (a.index ?? 0);
      out.push(published(a[1] as string, start));
    }
  }
  // The registry's page of the package, and a CDN's copy of the package or of one of its files.
  const url = new RegExp(
    String.raw`https?://(?:(?:www\.)?npmjs\.(?:com|org)/package/(${names})(?![\w.@/-])` +
      String.raw`|(?:unpkg\.com|cdn\.jsdelivr\.net/npm)/(${names})${VERSION_SUFFIX}((?:/[\w.@-]+)*))`,
    'g',
  );
  for (const m of text.matchAll(url)) {
    const name = (m[1] ?? m[2]) as string;
    const start = (m.index ?? 0) + m[0].indexOf(name, m[0].indexOf('/', 8));
    const file = m[3] ?? '';
    out.push({ ...published(`${name}${file}`, start), span: [start, (m.index ?? 0) + m[0].length] });
  }
}

function published(subject: string, start: number): Partial {
  return { kind: 'subpath', subject, span: [start, start + subject.length], published: true };
}

interface Publication {
  /** The `files` list, `./` and trailing `/` trimmed; undefined when there is none. */
  files?: string[];
}

const PUBLICATION: FileReader<Publication | undefined> = {
  name: 'package files',
  read(text) {
    if (text === undefined) return undefined;
    try {
      const json = JSON.parse(text) as { files?: unknown };
      if (!Array.isArray(json.files)) return {};
      return { files: json.files.filter((f): f is string => typeof f === 'string').map(trimEntry) };
    } catch {
      return 'unreadable';
    }
  },
};

function trimEntry(entry: string): string {
  return entry.replace(/^\.\//, '').replace(/\/+$/, '');
}

/**
 * The package: published while a manifest of the workspace has its name (a text naming another
 * is not extracted: the names are today's). A file: published while it is tracked in the package or `files` names it exactly (a build output); stale when it was
 * then and is not now. A file only a folder entry covers (`dist`) cannot be told from git.
 */
export async function verifyPublishedClaim(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
  name: string,
  sub: string,
): Promise<ClaimCheck> {
  const manifest = ctx.manifests.packageFiles.get(name);
  if (manifest === undefined) return unverifiable(`no package.json of ${name} in the workspace`);
  if (sub === '.') return ok(`published from ${manifest}`);
  const file = sub.slice(2);
  const inPackage = path.posix.join(path.posix.dirname(manifest), file);
  if (pathState(ctx.root, ctx.realRoot, inPackage) === 'file')
    return ok('a file of the package', { foundIn: [inPackage] });
  const listed = (p: Publication | undefined) => p?.files?.includes(file) === true;
  if (listed(readNow(ctx.root, manifest, PUBLICATION)))
    return ok(`built for publishing: ${manifest} lists it in files`);
  if ((await ctx.heldThen([manifest], claim.memoryValidFrom, PUBLICATION, listed)) === true) {
    const commit = await ctx.fileBreak(
      [manifest],
      claim.memoryValidFrom,
      PUBLICATION,
      (p) => !listed(p),
      'every',
    );
    return withCommit(
      { verdict: 'stale', evidence: { reason: `${manifest} no longer lists ${file} in files` } },
      commit,
    );
  }
  const check = await verifyPathClaim(ctx, { ...claim, kind: 'path', subject: inPackage, negated: false });
  if (check.verdict === 'stale' || check.verdict === 'moved')
    return {
      verdict: 'stale',
      evidence: { ...check.evidence, reason: `${inPackage} ${check.evidence.reason}` },
    };
  return unverifiable(`${file} is not in git, nor named by ${manifest}'s files`);
}
