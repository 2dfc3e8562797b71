import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import * as esbuild from 'esbuild';
import { tempDir } from '../support/temp';

const root = path.join(__dirname, '..', '..');

/** Bundles an entry the way scripts/build.mjs does, with `vscode` left external so a leak shows. */
async function bundle(entry: string): Promise<{ code: string; inputs: string[] }> {
  const outfile = path.join(tempDir(), 'bundle.js');
  const result = await esbuild.build({
    entryPoints: [path.resolve(root, entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    external: ['vscode'],
    metafile: true,
    logLevel: 'silent',
  });
  return { code: readFileSync(outfile, 'utf8'), inputs: Object.keys(result.metafile.inputs) };
}

const VSCODE_IMPORT = /require\(["']vscode["']\)|from ["']vscode["']/;

describe('boundaries', () => {
  for (const entry of ['engine/index.ts', 'engine/bin/cli.ts']) {
    it(`${entry} bundles without vscode, extension/ or webview/`, async () => {
      const { code, inputs } = await bundle(entry);
      assert.doesNotMatch(code, VSCODE_IMPORT);
      assert.deepEqual(
        inputs.filter((input) => /^(extension|webview)\//.test(input)),
        [],
      );
    });
  }

  it('the check itself catches a leak in esbuild output', async () => {
    const leaking = path.join(tempDir(), 'leak.ts');
    writeFileSync(leaking, "import * as vscode from 'vscode';\nexport const version = vscode.version;\n");
    const { code } = await bundle(leaking);
    assert.match(code, VSCODE_IMPORT);
  });
});
