import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
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
    if (!cacheFile || (cachedData && !script.cachedDataRejected)) return;
    try {
      const temp = `${cacheFile}.${process.pid}.tmp`;
      writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
      renameSync(temp, cacheFile);
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
