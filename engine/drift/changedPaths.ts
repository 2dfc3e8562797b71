import path from 'node:path';
import type { SqlReader } from '../store/sqlAccess';
import type { ClaimForCheck } from './claimStore';
import { resolveClaimPath } from './workspacePaths';

const MANIFEST_CLAIMS = ['script', 'dependency', 'command'];

/** What a claim says about paths: enough to tell whether a change can affect it. */
export type PathNaming = Pick<ClaimForCheck, 'memoryId' | 'kind' | 'subject' | 'file'>;

/**
 * The memories a change of `changedPaths` can affect: those whose path claims name a changed file
 * (or a folder holding one, or a file inside a changed folder), whose symbols are said to be in a
 * changed file, and, when a manifest changed, those claiming scripts, dependencies or commands.
 */
export function affectedMemories(
  root: string,
  claims: readonly PathNaming[],
  changedPaths: readonly string[],
  manifestFiles: readonly string[],
): Set<string> {
  const changed = relativePaths(root, changedPaths);
  const manifestChanged = changed.some((p) => isManifest(p, manifestFiles));
  const names = (relative: string) =>
    changed.some((c) => c === relative || c.startsWith(`${relative}/`) || relative.startsWith(`${c}/`));
  const affected = new Set<string>();
  for (const claim of claims) {
    const written = claim.kind === 'path' ? claim.subject : claim.file;
    if (written !== undefined) {
      const resolved = resolveClaimPath(root, written);
      if (resolved.inside && names(resolved.relative)) affected.add(claim.memoryId);
    }
    if (manifestChanged && MANIFEST_CLAIMS.includes(claim.kind)) affected.add(claim.memoryId);
  }
  return affected;
}

/** Past this many changed paths one read of every path-naming claim is cheaper than lookups. */
const MAX_LOOKUPS = 200;
/** Values per `IN (...)`: far below SQLite's 999 parameters. */
const KEYS_PER_STATEMENT = 200;

const CURRENT_CLAIMS = `SELECT c.memory_id AS memoryId, c.kind, c.subject, c.file FROM drift_claims c
  JOIN memories m ON m.id = c.memory_id AND m.superseded_at IS NULL AND m.status = 'active' AND m.layer <> 'codebase'`;

interface NamingRow {
  memoryId: string;
  kind: ClaimForCheck['kind'];
  subject: string;
  file: string | null;
}

/**
 * affectedMemories over the stored claims of the current memories, found through the claims'
 * indexes on subject and file (drift_claims_subject, drift_claims_file) instead of reading every
 * claim: the forms a memory may write a changed path or a folder above it in (`src/a.ts`,
 * `./src/a.ts`, `src/`, absolute), and any path under a changed folder (a range of the index).
 * A path written otherwise (`src//a.ts`, `lib/../src/a.ts`) is found by a full check only.
 */
export function memoriesNamingPaths(
  reader: SqlReader,
  root: string,
  changedPaths: readonly string[],
  manifestFiles: readonly string[],
): Set<string> {
  const changed = relativePaths(root, changedPaths);
  if (changed.length === 0) return new Set();
  const rows: NamingRow[] = [];
  if (changed.length > MAX_LOOKUPS) {
    rows.push(...reader.all<NamingRow>(`${CURRENT_CLAIMS} WHERE c.kind = 'path' OR c.file IS NOT NULL`));
  } else {
    const bases = ['', './', `${root.split(path.sep).join('/').replace(/\/$/, '')}/`];
    const keys = new Set<string>();
    const prefixes = new Set<string>();
    for (const c of changed) {
      const segments = c.split('/');
      for (let i = 1; i <= segments.length; i++) {
        const above = segments.slice(0, i).join('/');
        for (const base of bases) keys.add(`${base}${above}`).add(`${base}${above}/`);
      }
      for (const base of bases) prefixes.add(`${base}${c}/`);
    }
    const keyList = [...keys];
    for (const column of ['c.subject', 'c.file']) {
      for (let i = 0; i < keyList.length; i += KEYS_PER_STATEMENT) {
        const chunk = keyList.slice(i, i + KEYS_PER_STATEMENT);
        rows.push(
          ...reader.all<NamingRow>(
            `${CURRENT_CLAIMS} WHERE ${column} IN (${chunk.map(() => '?').join(', ')})`,
            chunk,
          ),
        );
      }
      // Every string starting with `prefix` (which ends in '/') sorts before it with '/' made '0'.
      for (const prefix of prefixes)
        rows.push(
          ...reader.all<NamingRow>(`${CURRENT_CLAIMS} WHERE ${column} >= ? AND ${column} < ?`, [
            prefix,
            `${prefix.slice(0, -1)}0`,
          ]),
        );
    }
  }
  if (changed.some((p) => isManifest(p, manifestFiles)))
    rows.push(
      ...reader.all<NamingRow>(
        `${CURRENT_CLAIMS} WHERE c.kind IN (${MANIFEST_CLAIMS.map(() => '?').join(', ')})`,
        MANIFEST_CLAIMS,
      ),
    );
  const claims = rows.map((row) => ({ ...row, file: row.file ?? undefined }));
  return affectedMemories(root, claims, changed, manifestFiles);
}

function isManifest(relative: string, manifestFiles: readonly string[]): boolean {
  return manifestFiles.includes(relative) || /(^|\/)(package\.json|Makefile)$/.test(relative);
}

function relativePaths(root: string, changedPaths: readonly string[]): string[] {
  return changedPaths.map((p) => toRelative(root, p)).filter((p): p is string => p !== undefined);
}

function toRelative(root: string, changed: string): string | undefined {
  const absolute = path.isAbsolute(changed) ? changed : path.join(root, changed);
  const relative = path.relative(root, absolute);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep).join('/');
}
