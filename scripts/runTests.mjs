// Runs the whole test suite with node's test runner (through tsx for TypeScript), after a build,
// and ends with one summary line: "tests: N passed, N failed".
// Usage: node scripts/runTests.mjs [filter substring...]
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const filters = process.argv.slice(2);

const build = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...findTests(full));
    else if (name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}
const files = findTests(path.join(root, 'test'))
  .filter((f) => !f.includes(`${path.sep}vscode${path.sep}`))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();

// The webview render tests drive a real Chromium: a fresh machine gets it installed first (as root or
// through passwordless sudo, like `npm run test:vscode`); when that cannot be done, one line says why.
if (files.some((f) => f.includes(`${path.sep}webview${path.sep}`))) {
  const setup = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'test/support/browserSetup.ts')],
    {
      stdio: 'inherit',
      cwd: root,
    },
  );
  if (setup.status !== 0) process.exit(1);
}

// One TAP file per run, so two runs at once never read each other's counts.
mkdirSync(path.join(root, 'bench-out'), { recursive: true });
const tapFile = path.join(root, 'bench-out', `tests-${process.pid}.tap`);
const run = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tapFile}`,
    ...files,
  ],
  { stdio: 'inherit', cwd: root },
);
const tap = readFileSync(tapFile, 'utf8');
rmSync(tapFile, { force: true });
const count = (key) => Number(new RegExp(`^# ${key} (\\d+)$`, 'm').exec(tap)?.[1] ?? 0);
const passed = count('pass');
const failed = count('fail') + count('cancelled');
const skipped = count('skipped') + count('todo');
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(run.status === 0 && failed === 0 && passed > 0 ? 0 : 1);
