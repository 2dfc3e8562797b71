// Copies the tree-sitter runtime and grammar .wasm files the code scanner loads into grammars/,
// with the licenses that cover them. The .wasm files are build outputs (see .gitignore): the
// query files (*.scm) beside them are the only grammar sources kept in git.
// Usage: node scripts/copyGrammars.mjs [--out DIR]
import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '..');
const outFlag = process.argv.indexOf('--out');
const out = outFlag > 0 ? path.resolve(process.argv[outFlag + 1] ?? '') : path.join(root, 'grammars');

/** The grammars the scanner has queries for; @vscode/tree-sitter-wasm ships a few more (css, ini, ...). */
const GRAMMARS = [
  'bash',
  'c-sharp',
  'cpp',
  'go',
  'java',
  'javascript',
  'php',
  'python',
  'ruby',
  'rust',
  'tsx',
  'typescript',
];

const grammarPackage = path.dirname(require.resolve('@vscode/tree-sitter-wasm/package.json'));
const runtimePackage = path.dirname(require.resolve('web-tree-sitter/web-tree-sitter.wasm'));
mkdirSync(out, { recursive: true });

const shipped = new Set(readdirSync(path.join(grammarPackage, 'wasm')));
for (const name of GRAMMARS) {
  const file = `tree-sitter-${name}.wasm`;
  if (!shipped.has(file)) throw new Error(`@vscode/tree-sitter-wasm has no ${file}: check its version`);
  copyFileSync(path.join(grammarPackage, 'wasm', file), path.join(out, file));
}
// The runtime must match the grammars' ABI: web-tree-sitter's own wasm, not the older copy in
// @vscode/tree-sitter-wasm (see platform-facts.md for the pair that loads together).
copyFileSync(path.join(runtimePackage, 'web-tree-sitter.wasm'), path.join(out, 'web-tree-sitter.wasm'));

// @vscode/tree-sitter-wasm ships one LICENSE for the package and names its upstream grammar
// packages (all MIT) as devDependencies: keep both beside the binaries built from them.
copyFileSync(path.join(grammarPackage, 'LICENSE'), path.join(out, 'LICENSE.vscode-tree-sitter-wasm'));
copyFileSync(path.join(runtimePackage, 'LICENSE'), path.join(out, 'LICENSE.web-tree-sitter'));
const manifest = JSON.parse(readFileSync(path.join(grammarPackage, 'package.json'), 'utf8'));
const upstream = Object.entries(manifest.devDependencies ?? {})
  .filter(([name]) => /^tree-sitter-/.test(name) && name !== 'tree-sitter-cli')
  .map(([name, version]) => `- ${name} ${version} (MIT): https://www.npmjs.com/package/${name}`);
writeFileSync(
  path.join(out, 'NOTICE.grammars.md'),
  [
    `The tree-sitter-*.wasm files here are copied from @vscode/tree-sitter-wasm ${manifest.version}`,
    '(MIT, LICENSE.vscode-tree-sitter-wasm), which builds them from the tree-sitter grammars (all MIT);',
    'the grammar packages its package.json names:',
    '',
    ...upstream,
    '',
    `web-tree-sitter.wasm is copied from web-tree-sitter (MIT, LICENSE.web-tree-sitter).`,
    '',
  ].join('\n'),
);
console.log(
  `copied ${GRAMMARS.length} grammars and the tree-sitter runtime into ${path.relative(root, out) || '.'}`,
);
