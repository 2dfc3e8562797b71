import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { modulesAtStartup } from '../support/startupGraph';
import { tempDir } from '../support/temp';

/**
 * What a process that loads the engine and never scans code, checks drift, runs the CLI or serves
 * HTTP must not evaluate: the compat MCP bridge is measured against the official memory server's
 * footprint, and these took ~12 MB of its RSS at start (test/mcp/compatFootprint.process.test.ts).
 */
const LOADED_ON_FIRST_USE = [
  /^engine\/bin\/cliProgram\.ts$/,
  /^engine\/mcp\/httpBridge\.ts$/,
  /^engine\/teamServer\/(runTeamServer|teamServer|teamMcp|rpcEndpoint)\.ts$/,
  /^engine\/drift\/(driftCheck|driftRepair|gitHistory|configFiles)\.ts$/,
  /^engine\/code\/(scanWorkspace|scanSession|grammarLoader|walker|codebaseMemories)\.ts$/,
  /^engine\/code\/manifests\//,
  /node_modules\/(web-tree-sitter|simple-git|yaml|smol-toml|@hono\/node-server)\//,
];

describe('what loading the engine bundle evaluates', () => {
  it('dist/engineCore.js leaves the CLI, drift checker, code scanner and HTTP transport until first use', async () => {
    const loaded = await modulesAtStartup('engine/bin/engineCore.ts');
    assert.ok(loaded.includes('engine/api/engineDispatcher.ts'), 'the engine itself loads');
    assert.deepEqual(
      loaded.filter((file) => LOADED_ON_FIRST_USE.some((pattern) => pattern.test(file))),
      [],
    );
  });

  it('nor the MCP SDK (loaded when a bridge starts), the tokenizer, hnswlib or fake-indexeddb', async () => {
    // Every CLI command is a new process that pays for what loads here, `engram drift` included
    // (issue 13: a re-check within 2 s).
    const loaded = await modulesAtStartup('engine/bin/engineCore.ts');
    for (const lazy of ['@modelcontextprotocol/sdk', 'gpt-tokenizer', 'hnswlib-wasm', 'fake-indexeddb'])
      assert.deepEqual(
        loaded.filter((f) => f.includes(`node_modules/${lazy}/`)).slice(0, 3),
        [],
        `${lazy} is initialized with the bundle`,
      );
  });

  it("loads none of Node's HTTP or TLS modules: only a team server's client needs them", () => {
    // The built bundle in a process of its own: Node lists every built-in module it has loaded.
    // The test runner builds dist/ before any test runs (scripts/runTests.mjs).
    const bundle = path.join(__dirname, '..', '..', 'dist', 'engineCore.js');
    const loaded = JSON.parse(
      execFileSync(
        process.execPath,
        ['-e', `require(${JSON.stringify(bundle)}); console.log(JSON.stringify(process.moduleLoadList))`],
        { encoding: 'utf8' },
      ),
    ) as string[];
    assert.ok(loaded.includes('NativeModule zlib'), 'the list names the built-ins the engine loads');
    assert.deepEqual(
      loaded.filter((name) => /^NativeModule (_?https?|_http_\w+|tls|_tls_\w+)$/.test(name)),
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
    const loaded = (await modulesAtStartup(entry)).map((file) => path.basename(file));
    assert.ok(loaded.includes('eager.ts'));
    assert.ok(!loaded.includes('lazy.ts'));
  });
});
