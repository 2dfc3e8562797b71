import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import * as esbuild from 'esbuild';

const ROOT = path.join(__dirname, '..', '..');
const ENGINE_CORE = 'engine/bin/engineCore.ts';

/**
 * The inputs of dist/engineCore.js that run when a process requires it: reached from the entry by
 * import statements, and by require() calls of packages (at their top level as a rule). A dynamic
 * import() is initialized when called, and so is the engine's require() inside a function
 * (tokenCount.ts). Every CLI command is a new process that pays for these, `engram drift` included
 * (issue 13: a re-check within 2 s).
 */
async function loadedAtStart(): Promise<string[]> {
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [ENGINE_CORE],
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
  const seen = new Set<string>([ENGINE_CORE]);
  const queue = [ENGINE_CORE];
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

describe('what starting the engine bundle initializes', () => {
  it('neither the MCP SDK (loaded when a bridge starts) nor the tokenizer or hnswlib', async () => {
    const loaded = await loadedAtStart();
    assert.ok(
      loaded.some((f) => f.startsWith('engine/drift/')),
      'the walk follows static imports',
    );
    for (const lazy of ['@modelcontextprotocol/sdk', 'gpt-tokenizer', 'hnswlib-wasm', 'fake-indexeddb'])
      assert.deepEqual(
        loaded.filter((f) => f.includes(`node_modules/${lazy}/`)).slice(0, 3),
        [],
        `${lazy} is initialized with the bundle`,
      );
  });
});
