import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { PACKAGE_ASSETS } from '../../extension/packageAssets';
import { REPO_ROOT, VSIX_PATH } from './support/artifacts';
import { zipEntryNames } from './support/zipListing';

const DIST = path.join(REPO_ROOT, 'dist');
const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  contributes: { commands: Array<{ command: string }> };
};

/** The files a manifest value names: icon paths and walkthrough media, at any depth. */
function manifestFiles(value: unknown, key = ''): string[] {
  if (typeof value === 'string')
    return ['icon', 'markdown', 'image', 'svg'].includes(key) && !value.startsWith('$(') ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((v) => manifestFiles(v, key));
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([k, v]) => manifestFiles(v, k));
  return [];
}
/** Built for the boundary test only; the extension never loads it. */
const NOT_SHIPPED = new Set(['engine.js']);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(REPO_ROOT, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
}

describe('the packaged .vsix', () => {
  const shipped = new Set(
    zipEntryNames(VSIX_PATH)
      .filter((n) => n.startsWith('extension/'))
      .map((n) => n.slice('extension/'.length)),
  );

  it('ships every bundle the build makes (entries and worker threads)', () => {
    const bundles = readdirSync(DIST).filter((n) => n.endsWith('.js') && !NOT_SHIPPED.has(n));
    assert.ok(
      bundles.includes('extension.js') &&
        bundles.includes('extensionEngine.js') &&
        bundles.includes('mcp.js') &&
        bundles.includes('scanWorker.js'),
    );
    for (const bundle of bundles)
      assert.ok(shipped.has(`dist/${bundle}`), `dist/${bundle} is missing from the .vsix`);
  });

  it('ships every .wasm, the default embedding model, the grammars with their queries and the webview scripts', () => {
    const assets = [
      ...readdirSync(DIST)
        .filter((n) => n.endsWith('.wasm'))
        .map((n) => `dist/${n}`),
      ...filesUnder(path.join(DIST, 'use-lite')),
      ...filesUnder(path.join(DIST, 'grammars')),
      ...filesUnder(path.join(DIST, 'webview')).filter((n) => n.endsWith('.js')),
    ];
    assert.ok(assets.includes('dist/sql-wasm.wasm'));
    assert.ok(assets.includes('dist/webview/timeline.js'), 'the timeline webview script is built');
    assert.ok(assets.some((a) => a.endsWith('tfjs-backend-wasm.wasm')));
    assert.ok(assets.some((a) => a.endsWith('tree-sitter-typescript.wasm')));
    assert.ok(assets.some((a) => a.endsWith('typescript.scm')));
    for (const asset of assets) assert.ok(shipped.has(asset), `${asset} is missing from the .vsix`);
  });

  it('ships the manifest, every file it names (icons, walkthrough pages) and every file the code loads', () => {
    assert.ok(shipped.has('package.json'));
    // The licence the manifest declares, and the changelog the Marketplace page shows.
    assert.ok(
      [...shipped].some((n) => /^LICENSE(\.txt)?$/.test(n)),
      'the LICENSE is packaged',
    );
    assert.ok(shipped.has('changelog.md'), 'the CHANGELOG is packaged (vsce names it changelog.md)');
    const named = manifestFiles(manifest);
    assert.ok(named.includes('extension/media/walkthrough/what.md'), 'the walkthrough pages are named');
    const loaded = PACKAGE_ASSETS.map((parts) => parts.join('/'));
    for (const file of [...named, ...loaded])
      assert.ok(shipped.has(file), `${file} is named but missing from the .vsix`);
  });

  it('links only to commands the manifest contributes (walkthrough steps, welcome views)', () => {
    const contributed = new Set(manifest.contributes.commands.map((c) => c.command));
    const linked = [...JSON.stringify(manifest.contributes).matchAll(/command:(engram\.[\w.]+)/g)].map(
      (m) => m[1] ?? '',
    );
    assert.ok(linked.length >= 8, `only ${linked.length} command links`);
    for (const command of linked)
      assert.ok(contributed.has(command), `${command} is linked but not contributed`);
  });

  it('ships no sources, tests, source maps or node_modules', () => {
    const leaked = [...shipped].filter(
      (n) => /\.(ts|map)$/.test(n) || /^(node_modules|test|engine|scripts|\.engram)\//.test(n),
    );
    assert.deepEqual(leaked, []);
  });
});
