import { lstatSync } from 'node:fs';
import path from 'node:path';
import { IgnoreStack } from './ignoreRules';
import { dirOf } from './resolveContext';
import { addFile, insideRoot, openWalk, sortedResult, walkDirectory } from './walker';
import type { WalkOptions, WalkResult, WalkState } from './walker';

/**
 * Lists what a full walk would list, but only at the given scopes (see scanScopes): a file, or a
 * directory walked in full. The rules are the full walk's: the ignore files of every ancestor
 * directory, the excludes and skipped names of the ancestors, and symlinks only into the root. A
 * scope that is gone, or left out by those rules, lists nothing, which makes its indexed files
 * deletions. This is what lets a file watcher's handful of paths skip the walk of the whole tree.
 */
export async function walkPaths(options: WalkOptions, scopes: readonly string[]): Promise<WalkResult> {
  const state = await openWalk(options);
  // Scopes share ancestors (every tsconfig of a monorepo): each directory's rules are built once.
  const rulesIn = new Map<string, IgnoreStack | undefined>([
    ['', IgnoreStack.empty().enter(state.realRoot, '')],
  ]);
  for (const scope of scopes) {
    state.options.signal?.throwIfAborted();
    const rules = rulesInside(state, dirOf(scope), rulesIn);
    if (rules) await walkScope(state, scope, rules);
  }
  return sortedResult(state);
}

/**
 * The ignore rules in force inside `directory`, built top-down as the full walk builds them;
 * undefined when the directory or one of its ancestors is itself left out.
 */
function rulesInside(
  state: WalkState,
  directory: string,
  rulesIn: Map<string, IgnoreStack | undefined>,
): IgnoreStack | undefined {
  if (rulesIn.has(directory)) return rulesIn.get(directory);
  const parent = rulesInside(state, dirOf(directory), rulesIn);
  const leftOut =
    !parent ||
    state.skipDirectories.has(path.posix.basename(directory)) ||
    state.excluded(directory) ||
    parent.ignores(directory, true);
  const rules = leftOut ? undefined : parent.enter(state.realRoot, directory);
  rulesIn.set(directory, rules);
  return rules;
}

async function walkScope(state: WalkState, relative: string, rules: IgnoreStack): Promise<void> {
  const absolute = path.join(state.realRoot, relative);
  // Resolving the whole path also catches an ancestor directory that is a symlink out of the root.
  const target = await insideRoot(state.realRoot, absolute);
  if (!target) {
    if (isPresent(absolute)) state.result.skipped.push({ path: relative, reason: 'symlink-outside' });
    return;
  }
  const name = path.posix.basename(relative);
  if (target.isDirectory) {
    if (state.skipDirectories.has(name) || state.excluded(relative) || rules.ignores(relative, true)) return;
    state.visited.add(target.realPath);
    await walkDirectory(state, relative, rules);
  } else if (target.isFile) {
    addFile(state, relative, absolute, name, rules);
  }
}

/** Whether anything (a dangling link included) is at the path; a gone path is a deletion. */
function isPresent(absolute: string): boolean {
  try {
    return lstatSync(absolute, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}
