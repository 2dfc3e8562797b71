import path from 'node:path';
import type { ClaimForCheck } from './claimStore';
import { resolveClaimPath } from './workspacePaths';

const MANIFEST_CLAIMS = new Set(['script', 'dependency', 'command']);

/**
 * The memories a change of `changedPaths` can affect: those whose path claims name a changed file
 * (or a folder holding one, or a file inside a changed folder), whose symbols are said to be in a
 * changed file, and, when a manifest changed, those claiming scripts, dependencies or commands.
 */
export function affectedMemories(
  root: string,
  claims: readonly ClaimForCheck[],
  changedPaths: readonly string[],
  manifestFiles: readonly string[],
): Set<string> {
  const changed = changedPaths.map((p) => toRelative(root, p)).filter((p): p is string => p !== undefined);
  const manifestChanged = changed.some(
    (p) => manifestFiles.includes(p) || /(^|\/)(package\.json|Makefile)$/.test(p),
  );
  const names = (relative: string) =>
    changed.some((c) => c === relative || c.startsWith(`${relative}/`) || relative.startsWith(`${c}/`));
  const affected = new Set<string>();
  for (const claim of claims) {
    const written = claim.kind === 'path' ? claim.subject : claim.file;
    if (written !== undefined) {
      const resolved = resolveClaimPath(root, written);
      if (resolved.inside && names(resolved.relative)) affected.add(claim.memoryId);
    }
    if (manifestChanged && MANIFEST_CLAIMS.has(claim.kind)) affected.add(claim.memoryId);
  }
  return affected;
}

function toRelative(root: string, changed: string): string | undefined {
  const absolute = path.isAbsolute(changed) ? changed : path.join(root, changed);
  const relative = path.relative(root, absolute);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep).join('/');
}
