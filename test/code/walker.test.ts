import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { runScan } from '../../engine/code/runScan';
import type { ScanSummary } from '../../engine/code/scanProtocol';
import { walkWorkspace } from '../../engine/code/walker';
import { tempDir } from '../support/temp';
import { grammarsDirectory, workspaceWith } from './codeWorkspace';

const paths = async (root: string, excludes: string[] = []) =>
  (await walkWorkspace({ root, excludes })).files.map((f) => f.path);

describe('workspace walker', () => {
  it('obeys the root .gitignore, nested .gitignore files with negations, and .engramignore', async () => {
    const root = workspaceWith({
      '.gitignore': '*.log\nsecret/\n',
      '.engramignore': 'docs/drafts/\n',
      'app.ts': 'export const a = 1;\n',
      'debug.log': 'noise\n',
      'secret/key.ts': 'export const k = 1;\n',
      'docs/drafts/wip.md': '# wip\n',
      'docs/guide.md': '# guide\n',
      'pkg/.gitignore': 'generated.ts\n!keep.log\n',
      'pkg/generated.ts': 'export const g = 1;\n',
      'pkg/keep.log': 'kept\n',
      'pkg/main.ts': 'export const m = 1;\n',
    });
    assert.deepEqual(await paths(root), [
      '.engramignore',
      '.gitignore',
      'app.ts',
      'docs/guide.md',
      'pkg/.gitignore',
      'pkg/keep.log',
      'pkg/main.ts',
    ]);
  });

  it('skips vendored and generated trees, lockfiles and minified names, and VS Code-style excludes', async () => {
    const root = workspaceWith({
      'src/a.ts': 'export const a = 1;\n',
      'node_modules/lib/index.js': 'module.exports = 1;\n',
      'packages/x/node_modules/y/index.js': 'module.exports = 1;\n',
      'dist/bundle.js': 'x\n',
      'vendor/lib.go': 'package lib\n',
      '.git/HEAD': 'ref: refs/heads/main\n',
      'public/app.min.js': 'x\n',
      'package-lock.json': '{}\n',
      'src/a.snap': 'snapshot\n',
      'fixtures/big/data.ts': 'export const d = 1;\n',
    });
    assert.deepEqual(await paths(root, ['**/*.snap', 'fixtures/**']), ['src/a.ts']);
  });

  it('refuses symlinks that leave the root and does not loop on links back into it', async () => {
    const outside = tempDir('engram-outside-');
    writeFileSync(path.join(outside, 'stolen.ts'), 'export const secret = 1;\n');
    const root = workspaceWith({ 'src/a.ts': 'export const a = 1;\n' });
    symlinkSync(outside, path.join(root, 'escape'));
    symlinkSync(path.join(outside, 'stolen.ts'), path.join(root, 'src/stolen.ts'));
    symlinkSync(path.join(root, 'src'), path.join(root, 'src/loop'));
    symlinkSync('../src/a.ts', path.join(root, 'src/alias.ts'));
    const walk = await walkWorkspace({ root });
    assert.deepEqual(
      walk.files.map((f) => f.path),
      ['src/a.ts', 'src/alias.ts'],
    );
    const refused = walk.skipped.filter((s) => s.reason === 'symlink-outside').map((s) => s.path);
    assert.deepEqual(refused.sort(), ['escape', 'src/stolen.ts']);
  });

  it('skips binary files (NUL sniff), oversize files and minified sources, and says why', async () => {
    const root = workspaceWith({ 'src/ok.ts': 'export const ok = 1;\n' });
    mkdirSync(path.join(root, 'assets'));
    writeFileSync(path.join(root, 'assets/logo.ts'), Buffer.from([0x47, 0x49, 0x46, 0x00, 0x01, 0x02]));
    writeFileSync(path.join(root, 'src/huge.ts'), `export const big = "${'x'.repeat(30_000)}";\n`);
    writeFileSync(path.join(root, 'src/packed.js'), `var a=1;${'function f(){return 1};'.repeat(400)}\n`);
    let summary: ScanSummary | undefined;
    const scanned: string[] = [];
    await runScan(
      { root, grammarsDirectory: grammarsDirectory(), known: [], maxFileBytes: 20_000 },
      (event) => {
        if (event.type === 'files') scanned.push(...event.files.map((f) => f.result.path));
        if (event.type === 'done') summary = event.summary;
      },
    );
    assert.deepEqual(scanned, ['src/ok.ts']);
    const reasons = Object.fromEntries((summary?.skipped ?? []).map((s) => [s.path, s.reason]));
    assert.deepEqual(reasons, {
      'assets/logo.ts': 'binary',
      'src/huge.ts': 'too-large',
      'src/packed.js': 'generated',
    });
  });
});
