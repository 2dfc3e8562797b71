import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { TFJS_WASM_FILES } from '../../engine/embedding/useLiteAssets';
import { PACKAGE_ASSETS } from '../../extension/packageAssets';
import { REPO_ROOT, VSIX_PATH } from './support/artifacts';
import { zipEntries, zipEntryNames } from './support/zipListing';

const DIST = path.join(REPO_ROOT, 'dist');
const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  icon?: string;
  categories?: string[];
  keywords?: string[];
  contributes: { commands: Array<{ command: string }> };
};

const MIB = 1024 * 1024;
/** What a user downloads (the target: under 15 MB; it was 34 MB). */
const VSIX_BUDGET = 15 * MIB;
/** What the installed extension takes on disk: 37 MB today, 20 MB of it tree-sitter grammars. */
const INSTALLED_BUDGET = 40 * MIB;
/** The entry points that require the shared engine (dist/engineCore.js) instead of bundling it. */
const THIN_ENTRIES = ['cli.js', 'mcp.js', 'extensionEngine.js'];

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
    // dist/fixture-*.js are the test suite's child processes (test/support/fixtureBundle.ts).
    const bundles = readdirSync(DIST).filter(
      (n) => n.endsWith('.js') && !NOT_SHIPPED.has(n) && !n.startsWith('fixture-'),
    );
    assert.ok(
      bundles.includes('extension.js') &&
        bundles.includes('extensionEngine.js') &&
        bundles.includes('mcp.js') &&
        bundles.includes('scanWorker.js'),
    );
    for (const bundle of bundles)
      assert.ok(shipped.has(`dist/${bundle}`), `dist/${bundle} is missing from the .vsix`);
    // The libraries dist/engineCore.js requires on first use (scripts/build.mjs, lazyLibraries)
    // and the token counter's rank table (scripts/tokenizerTable.mjs), which replaced gpt-tokenizer.
    const lazy = readdirSync(path.join(DIST, 'lazy'));
    assert.ok(lazy.includes('hnswlibWasm.js') && lazy.includes('o200k.bin'), lazy.join(', '));
    assert.ok(!lazy.includes('gptTokenizer.js'), 'gpt-tokenizer ships again (2.8 MB)');
    for (const bundle of lazy)
      assert.ok(shipped.has(`dist/lazy/${bundle}`), `dist/lazy/${bundle} is missing from the .vsix`);
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
    assert.ok(assets.includes('dist/webview/analytics.js'), 'the analytics webview script is built');
    for (const name of TFJS_WASM_FILES) assert.ok(assets.includes(`dist/use-lite/${name}`), name);
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

describe('the .vsix budget', () => {
  const entries = zipEntries(VSIX_PATH).filter((e) => e.name.startsWith('extension/'));
  const shipped = (name: string) => entries.some((e) => e.name === `extension/${name}`);

  it(`downloads under ${VSIX_BUDGET / MIB} MB and installs under ${INSTALLED_BUDGET / MIB} MB`, () => {
    const download = statSync(VSIX_PATH).size;
    const installed = entries.reduce((sum, e) => sum + e.size, 0);
    const largest = [...entries]
      .sort((a, b) => b.size - a.size)
      .slice(0, 5)
      .map((e) => `${e.name} ${(e.size / MIB).toFixed(1)} MB`)
      .join(', ');
    assert.ok(download < VSIX_BUDGET, `the .vsix is ${(download / MIB).toFixed(1)} MB; largest: ${largest}`);
    assert.ok(
      installed < INSTALLED_BUDGET,
      `installed: ${(installed / MIB).toFixed(1)} MB; largest: ${largest}`,
    );
  });

  it('ships one engine: the CLI, the MCP bridge and the extension require dist/engineCore.js', () => {
    assert.ok(shipped('dist/engineCore.js'), 'dist/engineCore.js is missing from the .vsix');
    for (const name of THIN_ENTRIES) {
      const text = readFileSync(path.join(DIST, name), 'utf8');
      assert.ok(text.includes('"./engineCore.js"'), `dist/${name} does not require ./engineCore.js`);
      // A copy of the engine would bring its sql.js loader and its tokenizer: hundreds of KB.
      assert.ok(text.length < 64 * 1024, `dist/${name} is ${text.length} bytes: it bundles its own engine`);
    }
  });

  it('ships minified bundles with no source-map link to a file it does not ship', () => {
    for (const entry of entries.filter((e) => e.name.endsWith('.js'))) {
      const file = path.join(REPO_ROOT, entry.name.slice('extension/'.length));
      const text = readFileSync(file, 'utf8');
      const link = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(text)?.[1];
      if (link !== undefined && !link.startsWith('data:'))
        assert.ok(
          shipped(path.posix.join(path.posix.dirname(entry.name.slice(10)), link)),
          `${entry.name} links ${link}`,
        );
      // esbuild marks each module of an unminified bundle with a `// path/of/module.ts` line;
      // minifying drops them. dist/extension.js keeps them on purpose (scripts/build.mjs).
      const markers = text.match(/^\/\/ (?:[\w@.-]+\/)+[\w.-]+\.(?:ts|js|mjs|cjs)$/gm)?.length ?? 0;
      if (entry.name !== 'extension/dist/extension.js')
        assert.equal(markers, 0, `${entry.name} is not minified (${markers} module comments)`);
    }
  });

  it('ships only the TF.js wasm binary that runs in Node, and the USE-lite weights quantised', () => {
    const binaries = entries
      .filter((e) => /tfjs-backend-wasm.*\.wasm$/.test(e.name))
      .map((e) => path.basename(e.name));
    assert.deepEqual(binaries.sort(), [...TFJS_WASM_FILES].sort());
    const shards = entries.filter((e) => e.name.startsWith('extension/dist/use-lite/group'));
    const weights = shards.reduce((sum, e) => sum + e.size, 0);
    // float32, the weights are 28 MB; uint8, 7 MB.
    assert.ok(weights < 8 * MIB, `USE-lite weights: ${(weights / MIB).toFixed(1)} MB`);
  });

  it('has a 128x128 PNG icon and Marketplace categories and keywords', () => {
    assert.ok(manifest.icon !== undefined && shipped(manifest.icon), `icon ${manifest.icon} is not packaged`);
    const png = readFileSync(path.join(REPO_ROOT, manifest.icon));
    assert.equal(png.toString('latin1', 1, 4), 'PNG');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128], 'icon width x height');
    assert.ok((manifest.categories ?? []).length > 0, 'no categories');
    assert.ok((manifest.keywords ?? []).length > 0, 'no keywords');
  });
});
