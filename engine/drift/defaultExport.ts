/**
 * Whether a package's entry still gives a callable module to `require()`. A memory that requires
 * the project and calls what it gets (`var LRU = require('lru-cache'); new LRU(50)`) goes stale
 * when the entry keeps loading as CommonJS but drops its default export for named ones
 * (lru-cache 10: `export class LRUCache`, no `module.exports = LRUCache` any more): the module is
 * then an object of names, and calling it throws. The entry is often a build output git does not
 * hold (`dist/commonjs/index.min.js`), so its source (`src/index.ts`) is read instead.
 */
import path from 'node:path';
import type { ClaimCheck } from './claimTypes';
import { withCommit } from './attribution';
import type { ClaimUnderCheck } from './attribution';
import type { FileReader } from './fileHistory';
import { IMPORT_FORMAT, MODULE_FORMAT, requireTargetFor } from './moduleFormat';
import type { VerificationContext } from './verificationContext';
import { pathState, readNow } from './workspacePaths';

/**
 * What a module file gives as a whole: a default (`module.exports = fn`, `export default`,
 * `export =`), only named exports (`export class X`, `exports.x = ...`, `module.exports = {...}`),
 * something this reading cannot decide (a re-export of another file, no exports at all), or no file.
 */
export type EntryShape = 'default' | 'named' | 'unknown' | 'gone';

export const ENTRY_SHAPE: FileReader<EntryShape> = {
  // The name keys stored answers: changed whenever what is read changes.
  name: 'entry default export',
  read(text) {
    if (text === undefined) return 'gone';
    const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    if (/^\s*export\s+default\b|^\s*export\s*=|\bas\s+default\b|^\s*exports\.default\s*=/m.test(code))
      return 'default';
    const assigned = [...code.matchAll(/^\s*module\.exports\s*=\s*(\S)/gm)].map((m) => m[1]);
    // `module.exports = require('./lib')` or `= new Thing()`: what that gives is read elsewhere.
    if (assigned.length > 0) {
      if (assigned.every((first) => first === '{')) return 'named';
      return /^\s*module\.exports\s*=\s*(?:require\s*\(|new\s)/m.test(code) ? 'unknown' : 'default';
    }
    if (/^\s*export\s+(?:const|let|var|function|async|class|\{|\*)|^\s*exports\.[\w$]+\s*=/m.test(code))
      return 'named';
    return 'unknown';
  },
};

/** Folders a build writes to, and the module-system folders inside them (`dist/commonjs/`). */
const BUILD_DIRS = new Set([
  'dist',
  'build',
  'out',
  'cjs',
  'esm',
  'commonjs',
  'mjs',
  'node',
  'browser',
  'umd',
]);
const SOURCE_EXTENSIONS = ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs'];

/**
 * The file that decides what `target` exports, in the working tree: the target itself when it is
 * a file outside a build folder, else its source by the usual layout (`dist/commonjs/index.min.js`
 * -> `src/index.ts`). Undefined when none is there.
 */
export function entrySource(root: string, realRoot: string, dir: string, target: string): string | undefined {
  const parts = path.posix.normalize(target).split('/');
  const isFile = (file: string) => pathState(root, realRoot, file) === 'file';
  const own = path.posix.join(dir, target);
  if (!BUILD_DIRS.has(parts[0] as string) && isFile(own)) return own;
  while (parts.length > 1 && BUILD_DIRS.has(parts[0] as string)) parts.shift();
  const stem = parts
    .join('/')
    .replace(/\.[cm]?js$/, '')
    .replace(/\.min$/, '');
  for (const folder of ['src', '', 'lib'])
    for (const ext of SOURCE_EXTENSIONS) {
      const file = path.posix.join(dir, folder, `${stem}${ext}`);
      if (isFile(file)) return file;
    }
  return undefined;
}

/** Per check, per manifest, subpath and way in: the entry file with named exports only (docs repeat requires). */
const namedOnlyEntries = new WeakMap<VerificationContext, Map<string, string | undefined>>();

/** The source file of the entry `how` reaches when it has named exports only now, else undefined. */
function namedOnlyEntry(
  ctx: VerificationContext,
  manifest: string,
  sub: string,
  how: 'require' | 'import',
): string | undefined {
  let entries = namedOnlyEntries.get(ctx);
  if (!entries) namedOnlyEntries.set(ctx, (entries = new Map<string, string | undefined>()));
  const key = `${manifest}\u0000${sub}\u0000${how}`;
  if (entries.has(key)) return entries.get(key);
  const format = readNow(ctx.root, manifest, how === 'require' ? MODULE_FORMAT : IMPORT_FORMAT);
  const target = format === undefined ? undefined : requireTargetFor(format, sub);
  const source =
    typeof target === 'string'
      ? entrySource(ctx.root, ctx.realRoot, path.posix.dirname(manifest), target)
      : undefined;
  const named =
    source !== undefined && readNow(ctx.root, source, ENTRY_SHAPE) === 'named' ? source : undefined;
  entries.set(key, named);
  return named;
}

/**
 * Stale when the entry `require()` (or a default `import`) reaches gives only named exports now
 * and a commit after the memory took its default away (the file's history, renames followed:
 * lru-cache's `index.js` became `src/index.ts`, which kept `export default` until "Named export
 * only"). Undefined (nothing to say) when the entry cannot be read or no such commit is found.
 */
export async function defaultExportGone(
  ctx: VerificationContext,
  claim: ClaimUnderCheck,
  manifest: string,
  sub: string,
  how: 'require' | 'import',
): Promise<ClaimCheck | undefined> {
  const source = namedOnlyEntry(ctx, manifest, sub, how);
  if (source === undefined) return undefined;
  const commit = await ctx.fileBreak(
    [source],
    claim.memoryValidFrom,
    ENTRY_SHAPE,
    // Held only where the file gave a default then: a re-export (`unknown`) cannot be judged.
    (shape) => shape !== 'default',
    'every',
  );
  if (commit === undefined) return undefined;
  return withCommit(
    {
      verdict: 'stale',
      evidence: {
        reason:
          how === 'require'
            ? `${source} has named exports only: require() gives an object of them, not a callable`
            : `${source} has named exports only: a default import gets nothing to call`,
        foundIn: [source],
      },
    },
    commit,
  );
}
