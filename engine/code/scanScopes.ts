import path from 'node:path';
import { IGNORE_FILES } from './ignoreRules';
import { dirOf } from './resolveContext';

/**
 * The parts of the workspace a targeted scan covers, from the paths a caller names (root-relative,
 * `/`-separated): each path stands for itself and, when it is a directory, everything below it.
 * An ignore file stands for its whole directory, since its rules decide what else is indexed
 * there. Paths inside another scope are dropped. `''` (the root) means the whole workspace.
 * Idempotent, so the index side and the scanner side can each apply it.
 */
export function scanScopes(paths: readonly string[]): string[] {
  const named = new Set(
    paths.map((p) => ((IGNORE_FILES as readonly string[]).includes(path.posix.basename(p)) ? dirOf(p) : p)),
  );
  if (named.has('')) return [''];
  return [...named].filter((scope) => !ancestorsOf(scope).some((a) => named.has(a))).sort();
}

/**
 * Whether a root-relative file is one of the scopes or lies below one: a set lookup per ancestor
 * of the file, not a comparison per scope (a targeted scan also names every indexed tsconfig, so
 * scopes run to the hundreds).
 */
export function scopeTest(scopes: readonly string[]): (file: string) => boolean {
  const set = new Set(scopes);
  if (set.has('')) return () => true;
  return (file) => {
    for (let at = file; ;) {
      if (set.has(at)) return true;
      const cut = at.lastIndexOf('/');
      if (cut < 0) return false;
      at = at.slice(0, cut);
    }
  };
}

function ancestorsOf(relative: string): string[] {
  const parts = relative.split('/');
  return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join('/'));
}
