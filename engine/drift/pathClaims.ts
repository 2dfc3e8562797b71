import path from 'node:path';
import { addedBy, eventAfter } from './gitHistory';
import type { PathEvent } from './gitHistory';
import type { ClaimCheck } from './claimTypes';
import { ok, unverifiable, withCommit } from './attribution';
import type { ClaimUnderCheck } from './attribution';
import type { VerificationContext } from './verificationContext';
import { pathState, resolveClaimPath } from './workspacePaths';
import type { ResolvedPath } from './workspacePaths';

const MAX_RENAME_HOPS = 20;

/**
 * A path claim: present (ok), gone (stale, with the deleting commit), renamed to a path that
 * exists (moved, with the target and the renaming commit). Paths outside the workspace are
 * refused before anything touches the disk.
 */
export async function verifyPathClaim(ctx: VerificationContext, claim: ClaimUnderCheck): Promise<ClaimCheck> {
  const resolved = (await rootRelative(ctx, claim.subject)) ?? resolveClaimPath(ctx.root, claim.subject);
  if (!resolved.inside) return unverifiable(`refused: ${resolved.reason}, never read`);
  const where = locate(ctx, claim, resolved.relative);
  if (where === 'outside') return unverifiable('refused: a link out of the workspace, never read');
  if (where !== undefined) {
    if (!claim.negated) return ok('exists', where === resolved.relative ? {} : { foundIn: [where] });
    const commit = ctx.git ? await addedBy(ctx.git, where, claim.memoryValidFrom) : undefined;
    return withCommit(
      { verdict: 'stale', evidence: { reason: 'exists although denied', foundIn: [where] } },
      commit,
    );
  }
  if (claim.negated) return ok('absent, as the memory says');
  // The path as written, or beside the memory's source file: whichever changed after the memory.
  // A path already gone before the memory was written blames no commit (never one before it).
  const time = claim.memoryValidFrom;
  let earlier: PathEvent | undefined;
  for (const candidate of candidatesOf(ctx, claim, resolved.relative)) {
    const event = await historyOf(ctx, candidate, time);
    // git keeps whole seconds: a commit in the memory's own second may have come after it.
    if (event && event.committed >= Math.floor(time / 1000) * 1000) {
      const check = await fromEvent(ctx, candidate, event);
      // A path written relative to its document is repaired relative to it too.
      if (candidate !== resolved.relative && check.evidence.target !== undefined && claim.sourceFile) {
        const base = path.posix.dirname(claim.sourceFile);
        return {
          ...check,
          evidence: { ...check.evidence, target: path.posix.relative(base, check.evidence.target) },
        };
      }
      return check;
    }
    earlier ??= event;
  }
  if (earlier)
    return unverifiable('already gone before the memory was written (a path elsewhere or a mistake)');
  if (!ctx.git) return { verdict: 'stale', evidence: { reason: 'missing (filesystem only: no git)' } };
  if (ctx.git.shallow)
    return {
      verdict: 'stale',
      evidence: { reason: 'missing (shallow clone: the removing commit is not in it)' },
    };
  return unverifiable('not in the workspace and never in its git history (an example or a path elsewhere)');
}

/**
 * `/docs/help.md` in a document's link means the repository's `docs/help.md`, as GitHub renders
 * it: read so when the absolute path is outside the workspace and the workspace has (or its
 * history had) that path. `/etc/hosts` stays outside, refused.
 */
async function rootRelative(ctx: VerificationContext, written: string): Promise<ResolvedPath | undefined> {
  if (!/^\/[^/]/.test(written) || resolveClaimPath(ctx.root, written).inside) return undefined;
  const inside = resolveClaimPath(ctx.root, written.slice(1));
  if (!inside.inside) return undefined;
  if (pathState(ctx.root, ctx.realRoot, inside.relative) !== 'missing') return inside;
  return (await ctx.pathEvents).has(inside.relative) ? inside : undefined;
}

/**
 * Where the path is now: as written, relative to the memory's source file, or a bare file name
 * anywhere; the string 'outside' for a link out of the workspace.
 */
function locate(ctx: VerificationContext, claim: ClaimUnderCheck, relative: string): string | undefined {
  const state = pathState(ctx.root, ctx.realRoot, relative);
  if (state === 'outside') return 'outside';
  if (state !== 'missing') return relative;
  if (claim.sourceFile && !claim.subject.startsWith('/')) {
    const besideSource = resolveClaimPath(
      ctx.root,
      path.posix.join(path.posix.dirname(claim.sourceFile), claim.subject),
    );
    if (besideSource.inside && pathState(ctx.root, ctx.realRoot, besideSource.relative) !== 'missing')
      return besideSource.relative;
  }
  // "see `index.js`" may mean a file of that name anywhere; a link's target is that file only.
  return relative.includes('/') || claim.linked ? undefined : ctx.symbols.fileNamed(relative);
}

/** Where a path claim may point: as written, and relative to the memory's source file. */
function candidatesOf(ctx: VerificationContext, claim: ClaimUnderCheck, relative: string): string[] {
  const candidates = [relative];
  if (claim.sourceFile && !claim.subject.startsWith('/')) {
    const beside = resolveClaimPath(
      ctx.root,
      path.posix.join(path.posix.dirname(claim.sourceFile), claim.subject),
    );
    if (beside.inside && beside.relative !== relative) candidates.push(beside.relative);
  }
  return candidates;
}

/**
 * The deletion or rename that made a memory of `time` false (the first after it), of the path
 * itself or, for a folder, of the files under it: the folder went with the last of them.
 */
async function historyOf(
  ctx: VerificationContext,
  relative: string,
  time: number,
): Promise<PathEvent | undefined> {
  const events = await ctx.pathEvents;
  const own = events.get(relative);
  if (own) return eventAfter(own, time);
  const prefix = `${relative}/`;
  let latest: PathEvent | undefined;
  let target: string | undefined;
  let consistent = true;
  for (const from of pathsUnder(events, prefix)) {
    const event = eventAfter(events.get(from) ?? [], time);
    if (!event) continue;
    if (!latest || event.committed > latest.committed) latest = event;
    if (event.status === 'R' && event.target?.endsWith(from.slice(relative.length))) {
      const movedTo = event.target.slice(0, event.target.length - (from.length - relative.length));
      if (target === undefined) target = movedTo;
      else if (target !== movedTo) consistent = false;
    } else consistent = false;
  }
  if (!latest) return undefined;
  return consistent && target !== undefined ? { ...latest, status: 'R', target } : { ...latest, status: 'D' };
}

const sortedPaths = new WeakMap<Map<string, PathEvent[]>, string[]>();

/**
 * The paths of `events` that start with `prefix`, found by binary search in the paths sorted once
 * per history: a scan of every path for each missing claim cost mocha's re-check ~150 ms.
 */
function pathsUnder(events: Map<string, PathEvent[]>, prefix: string): string[] {
  let sorted = sortedPaths.get(events);
  if (!sorted) {
    sorted = [...events.keys()].sort();
    sortedPaths.set(events, sorted);
  }
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as string) < prefix) low = middle + 1;
    else high = middle;
  }
  const under: string[] = [];
  for (let i = low; i < sorted.length && (sorted[i] as string).startsWith(prefix); i++)
    under.push(sorted[i] as string);
  return under;
}

/**
 * Follows renames to where the path is now; a chain that ends deleted is stale. Either way the
 * first rename is the commit that made the memory's path false.
 */
async function fromEvent(ctx: VerificationContext, relative: string, event: PathEvent): Promise<ClaimCheck> {
  if (event.status === 'D' || event.target === undefined) {
    const twin = await moduleTwin(ctx, relative, event);
    if (twin)
      return { verdict: 'moved', evidence: { reason: 'renamed', target: twin, commit: event.commit } };
    return { verdict: 'stale', evidence: { reason: 'deleted', commit: event.commit } };
  }
  let target = event.target;
  for (let hop = 0; hop < MAX_RENAME_HOPS; hop++) {
    if (pathState(ctx.root, ctx.realRoot, target) !== 'missing')
      return { verdict: 'moved', evidence: { reason: 'renamed', target, commit: event.commit } };
    const next = await historyOf(ctx, target, event.committed);
    if (!next) break;
    if (next.status === 'D' || next.target === undefined)
      return {
        verdict: 'stale',
        evidence: {
          reason: `renamed to ${target}, then deleted in ${next.commit.hash.slice(0, 12)}`,
          commit: event.commit,
        },
      };
    target = next.target;
  }
  return {
    verdict: 'stale',
    evidence: { reason: `renamed to ${target}, which is gone`, commit: event.commit },
  };
}

/** The module flavours one source file may be renamed between (`lib/a.js` -> `lib/a.cjs`). */
const MODULE_FLAVOURS: ReadonlyArray<readonly string[]> = [
  ['.js', '.cjs', '.mjs'],
  ['.ts', '.cts', '.mts'],
  ['.jsx', '.cjsx', '.mjsx'],
];

/**
 * A file converted to another module flavour is often rewritten in the same commit, so git sees a
 * deletion and an addition rather than a rename. The same name with another flavour, existing now
 * and added by the very commit that deleted this one, is where the file went; one added later is
 * another file.
 */
async function moduleTwin(
  ctx: VerificationContext,
  relative: string,
  event: PathEvent,
): Promise<string | undefined> {
  const extension = path.posix.extname(relative);
  const flavours = MODULE_FLAVOURS.find((list) => list.includes(extension));
  if (!flavours || !ctx.git) return undefined;
  const stem = relative.slice(0, relative.length - extension.length);
  for (const flavour of flavours) {
    const twin = `${stem}${flavour}`;
    if (flavour === extension || pathState(ctx.root, ctx.realRoot, twin) !== 'file') continue;
    const added = await addedBy(ctx.git, twin, event.committed - 1);
    if (added?.hash === event.commit.hash) return twin;
  }
  return undefined;
}
