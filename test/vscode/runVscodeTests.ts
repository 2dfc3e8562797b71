// `npm run test:vscode`: builds, installs the test host on first use (cached), packages the .vsix,
// bundles the in-host runner, then runs test/vscode/*.test.ts with node's test runner.
// Usage: npm run test:vscode [-- filter...]   e.g. `-- packageContent` runs only that file
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { ARTIFACTS, CHAT_MODEL_EXTENSION, IN_HOST_RUNNER, REPO_ROOT, VSIX_PATH } from './support/artifacts';

const CHAT_MODEL_SOURCE = path.join(REPO_ROOT, 'test', 'vscode', 'inHost', 'chatModelExtension');
import { ensureTestHost } from './host/testHost';

const started = Date.now();
const step = (name: string) =>
  console.log(`[test:vscode] ${name} (${Math.round((Date.now() - started) / 1000)} s)`);
const run = (command: string, args: string[]) => {
  const result = spawnSync(command, args, { cwd: REPO_ROOT, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

mkdirSync(ARTIFACTS, { recursive: true });
step('build');
run(process.execPath, [path.join(REPO_ROOT, 'scripts', 'build.mjs')]);
step('test host');
ensureTestHost();
step('package');
run(process.execPath, [
  path.join(REPO_ROOT, 'node_modules', '@vscode', 'vsce', 'vsce'),
  'package',
  '--no-dependencies',
  '--allow-missing-repository',
  '--out',
  VSIX_PATH,
]);
async function main(): Promise<void> {
  step('bundle the in-host runners');
  await esbuild.build({
    // runner: the main suites; untrustedRunner: the Restricted Mode run (untrustedHost.test.ts);
    // captureHostRunner: capture with agent stores in a temp home (captureHost.test.ts).
    entryPoints: [
      { in: path.join(REPO_ROOT, 'test', 'vscode', 'inHost', 'runner.ts'), out: 'runner' },
      { in: path.join(REPO_ROOT, 'test', 'vscode', 'inHost', 'untrustedRunner.ts'), out: 'untrustedRunner' },
      {
        in: path.join(REPO_ROOT, 'test', 'vscode', 'inHost', 'captureHostRunner.ts'),
        out: 'captureHostRunner',
      },
      // teamHostRunner: the extension against a real team server (teamHost.test.ts).
      { in: path.join(REPO_ROOT, 'test', 'vscode', 'inHost', 'teamHostRunner.ts'), out: 'teamHostRunner' },
      // lifecycleHostRunner: Consolidate Now and the lifecycle settings (lifecycleHost.test.ts).
      {
        in: path.join(REPO_ROOT, 'test', 'vscode', 'inHost', 'lifecycleHostRunner.ts'),
        out: 'lifecycleHostRunner',
      },
    ],
    outdir: path.dirname(IN_HOST_RUNNER),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode'],
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  // A chat model as an extension of its own (a vendor must be contributed by the extension that
  // registers it), loaded beside Engram by lifecycleHost.test.ts.
  await esbuild.build({
    entryPoints: [path.join(CHAT_MODEL_SOURCE, 'extension.ts')],
    outfile: path.join(CHAT_MODEL_EXTENSION, 'extension.js'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode'],
    logLevel: 'warning',
  });
  copyFileSync(path.join(CHAT_MODEL_SOURCE, 'package.json'), path.join(CHAT_MODEL_EXTENSION, 'package.json'));
  const filters = process.argv.slice(2);
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.ts'))
    .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
    .sort()
    .map((f) => path.join(__dirname, f));
  step(`run ${files.map((f) => path.basename(f)).join(', ')}`);
  const tapFile = path.join(ARTIFACTS, `tests-${process.pid}.tap`);
  const tests = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      '--test-concurrency=1',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tapFile}`,
      ...files,
    ],
    { cwd: REPO_ROOT, stdio: 'inherit' },
  );
  const tap = existsSync(tapFile) ? readFileSync(tapFile, 'utf8') : '';
  rmSync(tapFile, { force: true });
  const count = (key: string) => Number(new RegExp(`^# ${key} (\\d+)$`, 'm').exec(tap)?.[1] ?? 0);
  const failed = count('fail') + count('cancelled');
  step('done');
  // Like `npm test`, one summary line last (CI reads it); named so it is not taken for npm test's.
  console.log(`vscode tests: ${count('pass')} passed, ${failed} failed`);
  process.exit(tests.status === 0 && failed === 0 && count('pass') > 0 ? 0 : 1);
}

void main();
