import { renameSync } from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';

const root = path.resolve(__dirname, '..', '..');
const bundles = new Map<string, string>();

/**
 * A child-process fixture (a .ts file under test/) bundled into dist/ as `fixture-<path>.js` once
 * per test process, so a test spawns it as `node <bundle>` like the shipped binaries: through tsx
 * each child paid ~1 s of CPU to start tsx and resolve the engine's modules through it (the crash
 * test starts 24). npm packages stay `require`d from node_modules. Beside the engine's own bundles,
 * because the bundled engine finds its worker scripts in its own directory (`Engram.open` checks
 * them: in dist/fixtures/ every fixture that opened an engine failed with "the scan worker script
 * is missing"). Written under a temporary name and renamed, so two test files bundling the same
 * fixture at once never spawn a half-written one; .vscodeignore (an allowlist) leaves them out of
 * the package.
 */
export function bundledFixture(script: string): string {
  const known = bundles.get(script);
  if (known) return known;
  const name = path.relative(root, script).replace(/\.ts$/, '').split(path.sep).join('-');
  const out = path.join(root, 'dist', `fixture-${name}.js`);
  const partial = `${out}.${process.pid}.partial`;
  buildSync({
    entryPoints: [script],
    outfile: partial,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    packages: 'external',
    logLevel: 'warning',
    absWorkingDir: root,
  });
  renameSync(partial, out);
  bundles.set(script, out);
  return out;
}
