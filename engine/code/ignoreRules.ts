import { readFileSync } from 'node:fs';
import path from 'node:path';
import ignore from 'ignore';
import type { Ignore } from 'ignore';
import picomatch from 'picomatch';

/** Files whose rules the walker obeys in every directory, as git does with nested .gitignore files. */
export const IGNORE_FILES = ['.gitignore', '.engramignore'] as const;

/**
 * Trees that are generated, vendored or tool state in nearly every project: never worth a
 * memory, and often most of a workspace's bytes.
 */
export const DEFAULT_SKIPPED_DIRECTORIES: readonly string[] = [
  '.git',
  '.hg',
  '.svn',
  '.engram',
  'node_modules',
  'bower_components',
  'vendor',
  'dist',
  'build',
  'out',
  'target',
  'coverage',
  '.next',
  '.nuxt',
  '__pycache__',
  '.venv',
  'venv',
  '.tox',
  '.mypy_cache',
  '.pytest_cache',
];

/** Lockfiles and minified bundles: generated, large, and nothing an agent should read. */
const GENERATED_FILE =
  /(\.min\.(js|mjs|cjs|css)|\.bundle\.js|\.map)$|^(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|Cargo\.lock|go\.sum|poetry\.lock|composer\.lock|Gemfile\.lock)$/;

export function isGeneratedName(fileName: string): boolean {
  return GENERATED_FILE.test(fileName);
}

/** The rules of one directory's ignore files, matched relative to that directory. */
interface DirectoryRules {
  base: string;
  rules: Ignore;
}

/**
 * The ignore rules in force in one directory: its ancestors' and its own. Deeper files are
 * consulted last, so a nested `!pattern` re-includes what a parent excluded, as in git.
 */
export class IgnoreStack {
  private constructor(private readonly levels: readonly DirectoryRules[]) {}

  static empty(): IgnoreStack {
    return new IgnoreStack([]);
  }

  /**
   * This stack plus the ignore files of `directory` (root-relative, '' for the root). `present`,
   * the directory's file names when the caller has listed it, saves trying to open absent files.
   */
  enter(rootAbsolute: string, directory: string, present?: readonly string[]): IgnoreStack {
    let rules: Ignore | undefined;
    for (const file of IGNORE_FILES) {
      if (present && !present.includes(file)) continue;
      const text = readIgnoreFile(path.join(rootAbsolute, directory, file));
      if (text !== undefined) (rules ??= ignore()).add(text);
    }
    return rules ? new IgnoreStack([...this.levels, { base: directory, rules }]) : this;
  }

  /** Whether a root-relative path (a directory when `isDirectory`) is ignored. */
  ignores(relativePath: string, isDirectory: boolean): boolean {
    let ignored = false;
    for (const level of this.levels) {
      const local = level.base === '' ? relativePath : relativePath.slice(level.base.length + 1);
      const verdict = level.rules.test(isDirectory ? `${local}/` : local);
      if (verdict.ignored) ignored = true;
      else if (verdict.unignored) ignored = false;
    }
    return ignored;
  }
}

function readIgnoreFile(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * VS Code-style exclude globs (`**∕node_modules`, `**∕*.snap`, `docs/{a,b}/**`), matched against
 * root-relative paths. A glob that names a directory excludes everything under it.
 */
export function excludeMatcher(globs: readonly string[]): (relativePath: string) => boolean {
  if (globs.length === 0) return () => false;
  const match = picomatch([...globs], { dot: true });
  return (relativePath) => match(relativePath);
}
