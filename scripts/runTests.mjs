// Runs the whole test suite with node's test runner (through tsx for TypeScript), after a build,
// and ends with one summary line: "tests: N passed, N failed".
// Usage: node scripts/runTests.mjs [--tier unit|process] [filter substring...]
//
// Two tiers, both run by `npm test` (and so by `npm run check`):
// - unit: everything in this process's reach (a real sql.js database in temp directories, real git
//   repositories, the CLI's program with collected output, workers, the MCP tools through the
//   SDK's in-memory transport);
// - process: tests of spawned binaries and processes (dist/cli.js, dist/mcp.js, crash and failover,
//   locks between processes, the webviews in Chromium). A file belongs here when it lives in one
//   of PROCESS_DIRECTORIES or its name ends in `.process.test.ts`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { failedAsFile, failedTests, failureReport } from './testFailures.mjs';

const root = path.resolve(import.meta.dirname, '..');
const PROCESS_DIRECTORIES = ['process', 'durability', 'webview'].map(
  (d) => `${path.sep}test${path.sep}${d}${path.sep}`,
);
const args = process.argv.slice(2);
const tierAt = args.indexOf('--tier');
const tier = tierAt >= 0 ? args.splice(tierAt, 2)[1] : undefined;
if (tier !== undefined && tier !== 'unit' && tier !== 'process') {
  console.error(`runTests: --tier must be unit or process; got "${tier}"`);
  process.exit(1);
}
const filters = args;
const inProcessTier = (file) =>
  file.endsWith('.process.test.ts') || PROCESS_DIRECTORIES.some((d) => file.includes(d));

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
  .filter((f) => tier === undefined || inProcessTier(f) === (tier === 'process'))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
// With no file at all, node's runner would fall back to its own file search and run fixtures.
if (files.length === 0) {
  console.error(`runTests: no test file matches ${filters.map((f) => `"${f}"`).join(', ') || 'the tier'}`);
  process.exit(1);
}

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

// Most test files wait on child processes, disks and sockets rather than the CPU, so running a few
// files at once fills both cores (node's default is one file at a time on a 2-core machine).
// ENGRAM_TEST_CONCURRENCY overrides it (1 to run one file at a time when hunting a flake).
const concurrency = Number(process.env.ENGRAM_TEST_CONCURRENCY || 4);

// One TAP file per run, so two runs at once never read each other's counts.
mkdirSync(path.join(root, 'bench-out'), { recursive: true });
const tapFile = path.join(root, 'bench-out', `tests-${process.pid}.tap`);
const run = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${concurrency}`,
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
// The causes go last, beside the summary, where a CI log cut to its tail still shows them. A file
// that failed as a whole is run once more alone, to show its own output: the result stands either way.
const report = failureReport(tap);
if (report) console.log(report);
for (const failure of failedTests(tap).filter(failedAsFile)) {
  const file = failure.fields.location.replace(/:1:1$/, '');
  const again = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', file], {
    cwd: root,
    encoding: 'utf8',
  });
  const lines = `${again.stdout}${again.stderr}`.trimEnd().split('\n');
  console.log(`\n${path.relative(root, file)} run again alone: exit ${again.status}; its last lines:`);
  for (const line of lines.slice(-40)) console.log(`  ${line}`);
}
const count = (key) => Number(new RegExp(`^# ${key} (\\d+)$`, 'm').exec(tap)?.[1] ?? 0);
const passed = count('pass');
const failed = count('fail') + count('cancelled');
const skipped = count('skipped') + count('todo');
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(run.status === 0 && failed === 0 && passed > 0 ? 0 : 1);
