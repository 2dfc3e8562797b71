import path from 'node:path';
import * as esbuild from 'esbuild';

const ROOT = path.join(__dirname, '..', '..');

/**
 * The modules a bundle of `entry` initializes when a process requires it, by esbuild's own graph:
 * reached from the entry by import statements, and by require() calls of packages (at their top
 * level as a rule). A dynamic import() is initialized when called, and so is the engine's own
 * require() inside a function (tokenCount.ts). Paths are relative to the repository, `/`-separated.
 */
export async function modulesAtStartup(entry: string): Promise<string[]> {
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [path.resolve(ROOT, entry)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    metafile: true,
    logLevel: 'silent',
    external: ['vscode'],
    alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
  });
  const inputs = result.metafile.inputs;
  const start = path.relative(ROOT, path.resolve(ROOT, entry)).split(path.sep).join('/');
  const seen = new Set<string>([start]);
  const queue = [start];
  for (let file = queue.pop(); file !== undefined; file = queue.pop())
    for (const dependency of inputs[file]?.imports ?? [])
      if (
        (dependency.kind === 'import-statement' ||
          (dependency.kind === 'require-call' && file.includes('node_modules/'))) &&
        !dependency.external &&
        !seen.has(dependency.path)
      ) {
        seen.add(dependency.path);
        queue.push(dependency.path);
      }
  return [...seen];
}
