import { manifestKindOf, readManifest } from '../code/manifests/readManifest';
import type { ManifestData } from '../code/types';
import type { FileReader } from './fileHistory';
import type { ClaimCheck, CommitEvidence } from './claimTypes';
import { ok, unverifiable, withCommit } from './attribution';
import type { ClaimUnderCheck } from './attribution';
import type { VerificationContext } from './verificationContext';

/** A manifest version as the claims read it: a deleted manifest declares nothing. */
const MANIFEST: FileReader<ManifestData | undefined> = {
  // Named for what it reads: stored answers of a reader that read less (no optional dependencies) are not reused.
  name: 'manifest with optional dependencies',
  read(text, file) {
    const kind = manifestKindOf(file);
    if (!kind) return 'unreadable';
    if (text === undefined) return undefined;
    const record = readManifest(kind, text);
    return record.data.error ? 'unreadable' : record.data;
  },
};

/** A package script or Makefile target (`npm run build`, `make lint`). */
export async function verifyScriptClaim(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
): Promise<ClaimCheck> {
  const { manifests } = ctx;
  if (manifests.files.length === 0) return unverifiable('no manifest declares scripts here');
  const declaredIn = manifests.scripts.get(claim.subject);
  const declares = (data: ManifestData | undefined) => data?.scripts?.[claim.subject] !== undefined;
  if (claim.negated) {
    if (!declaredIn) return ok('absent');
    const commit = await ctx.fileBreak(declaredIn, claim.memoryValidFrom, MANIFEST, declares, 'any');
    return withCommit(
      { verdict: 'stale', evidence: { reason: 'script present although denied', foundIn: declaredIn } },
      commit,
    );
  }
  if (declaredIn) {
    const removal = await goneFromRoot(ctx, claim, declaredIn, declares);
    if (!removal) return ok('declared', { foundIn: declaredIn });
    return withCommit(
      { verdict: 'stale', evidence: { reason: 'script no longer declared at the root' } },
      removal,
    );
  }
  const commit = await ctx.fileBreak(
    manifests.files,
    claim.memoryValidFrom,
    MANIFEST,
    (data) => !declares(data),
    'every',
  );
  if (!commit && (await neverHeld(ctx, claim, manifests.files, declares)))
    return unverifiable(
      'not declared when the memory was written either (a script of another project, or a mistake)',
    );
  return withCommit(
    { verdict: 'stale', evidence: { reason: 'script no longer declared', foundIn: [...manifests.files] } },
    commit,
  );
}

/**
 * A script run as the docs show it (`npm start`, `make lint`) runs from the workspace root. Found
 * only in nested packages now, it still counts as gone when a root manifest declared it when the
 * memory was written and no longer does: a docs site that later got its own `start` is another
 * script. One a nested package declared all along (the root never did) is that package's.
 */
async function goneFromRoot(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
  declaredIn: readonly string[],
  declares: (data: ManifestData | undefined) => boolean,
): Promise<CommitEvidence | undefined> {
  const roots = ctx.manifests.files.filter((file) => !file.includes('/'));
  if (roots.length === 0 || declaredIn.some((file) => roots.includes(file))) return undefined;
  return ctx.fileBreak(roots, claim.memoryValidFrom, MANIFEST, (data) => !declares(data), 'every');
}

/** A dependency, with the major version the memory gives, if any. */
export async function verifyDependencyClaim(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
): Promise<ClaimCheck> {
  const { manifests } = ctx;
  if (manifests.files.length === 0) return unverifiable('no manifest declares dependencies here');
  const name = claim.subject.toLowerCase();
  const declared = manifests.dependencies.get(name);
  const own = manifests.ownNames.has(name);
  if (claim.negated) {
    if (!declared) return ok('absent');
    const commit = await ctx.fileBreak(
      [declared.file],
      claim.memoryValidFrom,
      MANIFEST,
      (data) => versionIn(data, name) !== undefined,
      'any',
    );
    return withCommit(
      {
        verdict: 'stale',
        evidence: { reason: 'dependency present although denied', foundIn: [declared.file] },
      },
      commit,
    );
  }
  if (own) return ok('the project itself');
  // As the memory states it: declared, and on the major version it gives (if it gives one).
  const holds = (version: string | undefined) =>
    version !== undefined && (claim.version === undefined || majorOf(claim.version) === majorOf(version));
  if (!declared) {
    const commit = await ctx.fileBreak(
      manifests.files,
      claim.memoryValidFrom,
      MANIFEST,
      (data) => !holds(versionIn(data, name)),
      'every',
    );
    if (!commit && (await neverHeld(ctx, claim, manifests.files, (data) => holds(versionIn(data, name)))))
      return unverifiable(NOT_DECLARED_THEN);
    return withCommit(
      { verdict: 'stale', evidence: { reason: 'dependency dropped', foundIn: [...manifests.files] } },
      commit,
    );
  }
  if (!holds(declared.version)) {
    const commit = await ctx.fileBreak(
      [declared.file],
      claim.memoryValidFrom,
      MANIFEST,
      (data) => !holds(versionIn(data, name)),
      'every',
    );
    if (!commit && (await neverHeld(ctx, claim, [declared.file], (data) => holds(versionIn(data, name)))))
      return unverifiable(NOT_DECLARED_THEN);
    return withCommit(
      { verdict: 'stale', evidence: { reason: 'version changed', now: declared.version } },
      commit,
    );
  }
  return ok('declared', { foundIn: [declared.file], now: declared.version });
}

const NOT_DECLARED_THEN =
  "not declared so when the memory was written either (another project's package, a product, or a mistake)";

/**
 * Drift is a change after the memory: a manifest fact that did not hold when the memory was written
 * (`require('pako')` in an example, "uses GitHub Actions") is no claim about this manifest, so no
 * commit can have broken it. False only when history can tell; without it the claim stays checked.
 */
async function neverHeld(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
  files: readonly string[],
  holds: (data: ManifestData | undefined) => boolean,
): Promise<boolean> {
  return (await ctx.heldThen(files, claim.memoryValidFrom, MANIFEST, holds)) === false;
}

/** The version requirement a manifest version gives a dependency (names compared lower-cased). */
/**
 * Whether a manifest of the project declared `name` when the memory was written: a plain word of
 * the memory that names such a package names the project's dependency (`when using `fsevents``).
 */
export async function declaredWhenWritten(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
): Promise<boolean> {
  if (ctx.manifests.files.length === 0 || !PACKAGE_NAME_RE.test(claim.subject)) return false;
  const name = claim.subject.toLowerCase();
  if (ctx.manifests.ownNames.has(name)) return false;
  const held = await ctx.heldThen(
    ctx.manifests.files,
    claim.memoryValidFrom,
    MANIFEST,
    (data) => versionIn(data, name) !== undefined,
  );
  return held === true;
}

/** How npm names a package: lower case, digits, `-`, `.`, `_`; never a camelCase API name. */
const PACKAGE_NAME_RE = /^[a-z0-9][a-z0-9._-]*$/;

function versionIn(data: ManifestData | undefined, name: string): string | undefined {
  if (!data) return undefined;
  for (const group of [data.dependencies, data.devDependencies]) {
    for (const [dep, version] of Object.entries(group ?? {})) if (dep.toLowerCase() === name) return version;
  }
  return undefined;
}

function majorOf(version: string): string {
  return /(\d+)/.exec(version)?.[1] ?? version;
}
