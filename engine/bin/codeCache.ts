import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import Module, { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';

/** What Node's module system has that its types do not declare. */
type NodeModule = typeof Module & {
  wrap(source: string): string;
  _nodeModulePaths(directory: string): string[];
  enableCompileCache?: () => unknown;
};

/**
 * Requires a bundle (dist/engineCore.js) through a V8 code cache: every CLI command is a new
 * process, and compiling the 2.4 MB bundle cost each ~0.15 s of CPU (a drift re-check has 2 s).
 * Node 22+ caches by itself (module.enableCompileCache); Node 20 has no such switch, so the bundle
 * is compiled here with the cached data of an earlier run, and `save` writes the cache once the
 * command has run (with the functions it compiled) when there was none or V8 rejected it (another
 * bundle or V8). The cache is kept in a directory of this user's alone, else not used.
 */
export function requireWithCodeCache(
  file: string,
  /** The V8 flags this process set (cached code is refused under other flags): one cache each. */
  flags = '',
): { exports: unknown; save: () => void } {
  const node = Module as NodeModule;
  if (node.enableCompileCache) {
    node.enableCompileCache();
    return { exports: createRequire(file)(file), save: () => undefined };
  }
  // Hashed as read: hashing the decoded string encoded its 2.8 MB to UTF-8 again on every run.
  const bytes = readFileSync(file);
  const source = bytes.toString('utf8');
  const cacheFile = cacheFileFor(file, bytes, flags);
  let cachedData: Buffer | undefined;
  try {
    if (cacheFile) cachedData = readFileSync(cacheFile);
  } catch {
    // None yet.
  }
  const script = new vm.Script(node.wrap(source), {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const directory = path.dirname(file);
  const loaded = new Module(file, module);
  loaded.filename = file;
  loaded.paths = node._nodeModulePaths(directory);
  require.cache[file] = loaded;
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(loaded.exports, loaded.exports, createRequire(file), loaded, file, directory);
  loaded.loaded = true;
  const save = () => {
    if (!cacheFile) return;
    try {
      if (cachedData && !script.cachedDataRejected) {
        markUsed(cacheFile);
        return;
      }
      const temp = `${cacheFile}.${process.pid}.tmp`;
      writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
      renameSync(temp, cacheFile);
      pruneStale(path.dirname(cacheFile), Date.now());
    } catch {
      // A cache is an optimisation: the next run compiles again.
    }
  };
  return { exports: loaded.exports, save };
}

/** The cache file of this bundle and Node, in a directory only this user can write; or none. */
function cacheFileFor(file: string, source: Buffer, flags: string): string | undefined {
  const uid = process.getuid?.();
  const directory = path.join(os.tmpdir(), `engram-code-cache${uid === undefined ? '' : `-${uid}`}`);
  try {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    const stat = statSync(directory);
    if (uid !== undefined && (stat.uid !== uid || (stat.mode & 0o077) !== 0)) return undefined;
  } catch {
    return undefined;
  }
  const key = createHash('sha256')
    .update(`${process.version}\0${process.arch}\0${file}\0${flags}\0`)
    .update(source)
    .digest('hex')
    .slice(0, 32);
  return path.join(directory, `${path.basename(file, '.js')}-${key}.cache`);
}

/**
 * A cache not used for this long is removed when another is written: every build of the bundle,
 * Node version and flag variant has its own file (1.2-1.9 MB each), and nothing else ever removed
 * them. Each run that uses a cache marks it, so caches in use (two Engram installs side by side)
 * are never removed; a temporary file a killed process left goes after a day.
 */
const STALE_CACHE_MS = 7 * 24 * 3600 * 1000;
const STALE_TEMP_MS = 24 * 3600 * 1000;

/** Marks a cache used now (its modification time), at most once a day. */
function markUsed(cacheFile: string): void {
  const now = Date.now();
  if (now - statSync(cacheFile).mtimeMs < STALE_TEMP_MS) return;
  utimesSync(cacheFile, new Date(now), new Date(now));
}

function pruneStale(directory: string, now: number): void {
  for (const name of readdirSync(directory)) {
    const maxAge = name.endsWith('.cache')
      ? STALE_CACHE_MS
      : name.endsWith('.tmp')
        ? STALE_TEMP_MS
        : undefined;
    if (maxAge === undefined) continue;
    const file = path.join(directory, name);
    try {
      if (now - statSync(file).mtimeMs > maxAge) rmSync(file, { force: true });
    } catch {
      // Gone already (another process pruned it).
    }
  }
}
