import path from 'node:path';
import { invalidInput } from '../errors';

/**
 * The root-relative, `/`-separated form of paths named relative to the workspace root or
 * absolute inside it (what a file watcher reports); `''` for the root itself. A path that leaves
 * the root is refused: a targeted scan reads nothing outside the workspace. The check is on the
 * names; a symlink inside the root that leads out is refused later, by the walk.
 */
export function workspaceRelativePaths(root: string, paths: readonly string[]): string[] {
  const absoluteRoot = path.resolve(root);
  return paths.map((given) => {
    if (given.trim() === '') throw invalidInput('paths must name files or directories; got an empty path');
    const relative = path.relative(absoluteRoot, path.resolve(absoluteRoot, given));
    if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative))
      throw invalidInput(`paths must be inside the workspace ${absoluteRoot}; got ${given}`);
    return relative.split(path.sep).join('/');
  });
}
