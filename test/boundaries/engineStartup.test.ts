import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import * as esbuild from 'esbuild';
import { tempDir } from '../support/temp';

const root = path.join(__dirname, '..', '..');

/**
 * The modules a bundle of `entry` evaluates as it loads, by esbuild's own graph: it runs every
 * module reached through static imports and requires when the bundle starts, and a module reached
 * only through `import()` when that call runs.
 */
async function evaluatedAtLoad(entry: string): Promise<string[]> {
  const result = await esbuild.build({
    entryPoints: [path.resolve(root, entry)],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'cjs',
    external: ['vscode'],
    alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
    absWorkingDir: root,
    metafile: true,
    logLevel: 'silent',
  });
  const inputs = result.metafile.inputs;
  const start = path.relative(root, path.resolve(root, entry)).split(path.sep).join('/');
  const seen = new Set([start]);
  const queue = [start];
  for (let file = queue.shift(); file !== undefined; file = queue.shift())
    for (const edge of inputs[file]?.imports ?? [])
      if (!edge.external && edge.kind !== 'dynamic-import' && !seen.has(edge.path)) {
        seen.add(edge.path);
        queue.push(edge.path);
      }
  return [...seen];
}

/**
 * What a process that loads the engine and never scans code, checks drift, runs the CLI or serves
 * HTTP must not evaluate: the compat MCP bridge is measured against the official memory server's
 * footprint, and these took ~12 MB of its RSS at start (test/mcp/compatFootprint.test.ts).
 */
const LOADED_ON_FIRST_USE = [
  /^engine\/bin\/cliProgram\.ts$/,
  /^engine\/mcp\/httpBridge\.ts$/,
  /^engine\/drift\/(driftCheck|driftRepair|gitHistory|configFiles)\.ts$/,
  /^engine\/code\/(scanWorkspace|scanSession|grammarLoader|walker|codebaseMemories)\.ts$/,
  /^engine\/code\/manifests\//,
  /node_modules\/(web-tree-sitter|simple-git|yaml|smol-toml|@hono\/node-server)\//,
];

describe('what loading the engine bundle evaluates', () => {
  it('dist/engineCore.js leaves the CLI, drift checker, code scanner and HTTP transport until first use', async () => {
    const loaded = await evaluatedAtLoad('engine/bin/engineCore.ts');
    assert.ok(loaded.includes('engine/api/engineDispatcher.ts'), 'the engine itself loads');
    assert.deepEqual(
      loaded.filter((file) => LOADED_ON_FIRST_USE.some((pattern) => pattern.test(file))),
      [],
    );
  });

  it('the check itself tells a static import from a dynamic one', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'eager.ts'), 'export const eager = 1;\n');
    writeFileSync(path.join(dir, 'lazy.ts'), 'export const lazy = 2;\n');
    const entry = path.join(dir, 'entry.ts');
    writeFileSync(
      entry,
      "import { eager } from './eager';\nexport const later = () => import('./lazy').then((m) => m.lazy + eager);\n",
    );
    const loaded = (await evaluatedAtLoad(entry)).map((file) => path.basename(file));
    assert.ok(loaded.includes('eager.ts'));
    assert.ok(!loaded.includes('lazy.ts'));
  });
});
