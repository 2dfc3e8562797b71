import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

/**
 * What scripts/bundleSlimming.mjs keeps out of the engine bundle, which every CLI command and MCP
 * bridge parses whole at start. esbuild names each bundled CommonJS or lazily initialized module
 * by its path in the bundle's code, so those names say which modules it holds.
 */
function bundledModules(): string[] {
  // The test runner builds dist/ before any test runs (scripts/runTests.mjs).
  const code = readFileSync(path.join(__dirname, '..', '..', 'dist', 'engineCore.js'), 'utf8');
  return [...new Set(code.match(/"node_modules\/[^"]+\.(?:c|m)?js"/g) ?? [])].map((name) =>
    name.slice(1, -1),
  );
}

describe('the engine bundle leaves out code no process runs', () => {
  it('holds one copy of ajv: ajv-formats uses the MCP SDK’s', () => {
    const modules = bundledModules();
    assert.deepEqual(
      modules.filter((name) => name.endsWith('/ajv/dist/ajv.js')),
      ['node_modules/@modelcontextprotocol/sdk/node_modules/ajv/dist/ajv.js'],
    );
    assert.ok(
      modules.some((name) => name.startsWith('node_modules/ajv-formats/')),
      'ajv-formats is bundled',
    );
  });

  it('holds zod’s English messages and none of its other locales', () => {
    assert.deepEqual(
      bundledModules().filter((name) => name.startsWith('node_modules/zod/v4/locales/')),
      ['node_modules/zod/v4/locales/en.js'],
    );
  });
});
