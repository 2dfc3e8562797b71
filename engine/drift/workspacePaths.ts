import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { FileReader } from './fileHistory';

/** Where a claimed path points: inside the workspace (root-relative, `/`), or refused. */
export type ResolvedPath = { inside: true; relative: string } | { inside: false; reason: string };

/**
 * Resolves a path as a memory writes it against the workspace root, without touching the disk:
 * `~/x`, absolute paths elsewhere and `../` escapes are refused, so they are never read.
 */
export function resolveClaimPath(root: string, written: string): ResolvedPath {
  const text = written.replace(/\\/g, '/');
  if (text.startsWith('~')) return { inside: false, reason: 'outside the workspace (home directory)' };
  const absolute = /^[A-Za-z]:\//.test(text) || text.startsWith('/') ? text : path.join(root, text);
  const relative = path.relative(root, path.resolve(absolute));
  if (relative.startsWith('..') || path.isAbsolute(relative))
    return { inside: false, reason: 'outside the workspace' };
  return { inside: true, relative: relative.split(path.sep).join('/') };
}

export type PathState = 'file' | 'directory' | 'missing' | 'outside';

/**
 * Whether a root-relative path exists. A symlink (or a symlinked folder on the way) that leads out
 * of the workspace is `outside`: its target is never read.
 */
export function pathState(root: string, realRoot: string, relative: string): PathState {
  const full = path.join(root, relative);
  try {
    const link = lstatSync(full);
    const real = realpathSync(full);
    const inside = path.relative(realRoot, real);
    if (inside.startsWith('..') || path.isAbsolute(inside)) return 'outside';
    if (link.isSymbolicLink()) return lstatSync(real).isDirectory() ? 'directory' : 'file';
    return link.isDirectory() ? 'directory' : 'file';
  } catch {
    return 'missing';
  }
}

/** A workspace file as `reader` reads it today; undefined when it is missing or unreadable. */
export function readNow<T>(root: string, file: string, reader: FileReader<T | undefined>): T | undefined {
  try {
    const read = reader.read(readFileSync(path.join(root, file), 'utf8'), file);
    return read === 'unreadable' ? undefined : read;
  } catch {
    return undefined;
  }
}
