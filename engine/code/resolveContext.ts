import path from 'node:path';
import type { ManifestRecord } from './types';

/** The tsconfig/jsconfig settings that map bare specifiers to files, for files under `directory`. */
export interface PathMapping {
  directory: string;
  baseUrl: string | null;
  paths: Record<string, string[]>;
}

/** What import resolution knows about a workspace: its files and the configs that map imports. */
export interface ResolveContext {
  files: ReadonlySet<string>;
  /** Deepest directory first, so the nearest config wins. */
  pathMappings: PathMapping[];
  /** go.mod module paths by directory. */
  goModules: { directory: string; module: string }[];
  /** Directories holding a Cargo.toml (crate roots; `crate::` starts at their src/). */
  crateRoots: string[];
  /** File name -> root-relative paths, for languages that import by a path suffix (Java, C, PHP). */
  byFileName: Map<string, string[]>;
  /** Directory -> its files, for languages that import directories (Go packages). */
  byDirectory: Map<string, string[]>;
}

export interface ConfigFile {
  path: string;
  manifest: ManifestRecord;
}

/** Builds the context from the workspace's file list and its parsed config files. */
export function createResolveContext(files: Iterable<string>, configs: Iterable<ConfigFile>): ResolveContext {
  const fileSet = new Set(files);
  const context: ResolveContext = {
    files: fileSet,
    pathMappings: [],
    goModules: [],
    crateRoots: [],
    byFileName: new Map(),
    byDirectory: new Map(),
  };
  for (const file of fileSet) {
    addTo(context.byFileName, path.posix.basename(file), file);
    addTo(context.byDirectory, dirOf(file), file);
  }
  for (const { path: configPath, manifest } of configs) {
    const directory = dirOf(configPath);
    if (manifest.kind === 'tsconfig') {
      const { baseUrl, paths } = manifest.data;
      if (baseUrl === undefined && Object.keys(paths ?? {}).length === 0) continue;
      context.pathMappings.push({ directory, baseUrl: baseUrl ?? null, paths: paths ?? {} });
    } else if (manifest.kind === 'go.mod' && manifest.name) {
      context.goModules.push({ directory, module: manifest.name });
    } else if (manifest.kind === 'cargo') {
      context.crateRoots.push(directory);
    }
  }
  const deepestFirst = (a: { directory: string }, b: { directory: string }) =>
    b.directory.length - a.directory.length;
  context.pathMappings.sort(deepestFirst);
  context.goModules.sort(deepestFirst);
  context.crateRoots.sort((a, b) => b.length - a.length);
  return context;
}

function addTo(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The root-relative directory of a root-relative path ('' at the root). */
export function dirOf(relativePath: string): string {
  const directory = path.posix.dirname(relativePath);
  return directory === '.' ? '' : directory;
}

/** Joins root-relative parts and normalises `.`/`..`; undefined when the result leaves the root. */
export function joinInside(...parts: string[]): string | undefined {
  const joined = path.posix.normalize(parts.filter((p) => p !== '').join('/'));
  if (joined === '..' || joined.startsWith('../') || joined.startsWith('/')) return undefined;
  return joined === '.' ? '' : joined.replace(/\/$/, '');
}

/** Whether `file` is `directory` or below it ('' is the root, above everything). */
export function isUnder(file: string, directory: string): boolean {
  return directory === '' || file.startsWith(`${directory}/`);
}
