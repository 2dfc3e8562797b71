import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { failedAsFile, failedTests, failureReport } from '../../scripts/testFailures.mjs';
import { tempDir } from '../support/temp';

/**
 * The failure report scripts/runTests.mjs prints beside its summary, from the TAP of a real
 * `node --test` run over small test files: one passes, one fails an assertion, one fails as a whole
 * file (a rejection nobody handles after its tests passed: what a CI log showed as only
 * "test failed"), and one fails in a suite.
 */
function tapOf(files: Record<string, string>): string {
  const dir = tempDir('engram-tapfail-');
  for (const [name, code] of Object.entries(files)) writeFileSync(path.join(dir, name), code);
  const run = spawnSync(
    process.execPath,
    ['--test', '--test-reporter=tap', ...Object.keys(files).map((name) => path.join(dir, name))],
    // Without the outer runner's NODE_TEST_CONTEXT, which would make this run report to it instead.
    { encoding: 'utf8', cwd: dir, env: { ...process.env, NODE_TEST_CONTEXT: undefined } },
  );
  return run.stdout;
}

const FILES = {
  'passes.test.mjs': "import { it } from 'node:test';\nit('adds', () => {});\n",
  'asserts.test.mjs':
    "import { it } from 'node:test';\nimport assert from 'node:assert';\n" +
    "it('compares', () => { assert.equal(1, 2, 'one is not two'); });\n",
  'late.test.mjs':
    "import { it, after } from 'node:test';\nit('passes first', () => {});\n" +
    "after(() => { setTimeout(() => { console.error('connection lost: late boom'); process.exitCode = 1; }, 5); });\n",
  'suite.test.mjs':
    "import { describe, it } from 'node:test';\n" +
    "describe('a suite', () => { it('inner', () => { throw new Error('inner broke'); }); });\n",
};

describe('the failure report printed beside the test summary', () => {
  const tap = tapOf(FILES);

  it('lists each failed test with its error, and the file that failed as a whole with its exit code', () => {
    const failures = failedTests(tap);
    const names = failures.map((f) => path.basename(f.name));
    assert.deepEqual(names.sort(), ['compares', 'inner', 'late.test.mjs'].sort(), tap);
    const compares = failures.find((f) => f.name === 'compares');
    assert.equal(compares?.fields.error, 'one is not two');
    assert.ok(compares?.fields.stack?.includes('asserts.test.mjs'));
    const whole = failures.filter(failedAsFile);
    assert.deepEqual(
      whole.map((f) => path.basename(f.name)),
      ['late.test.mjs'],
    );
    assert.equal(whole[0]?.fields.exitCode, '1');
  });

  it('ends with what the processes printed that reads as a cause', () => {
    const report = failureReport(tap);
    assert.match(report, /failures \(3\):/);
    assert.match(report, /- compares \(.*asserts\.test\.mjs:3:1\)\n {2}testCodeFailure: one is not two/);
    assert.match(report, /late\.test\.mjs.*\n {2}testCodeFailure, exit code 1: test failed/);
    assert.match(report, /printed by the test processes[^\n]*\n {2}connection lost: late boom/);
    assert.ok(!report.includes('a suite'), 'a suite failing through its test is not listed twice');
  });

  it('is empty when nothing failed', () => {
    assert.equal(failureReport(tapOf({ 'passes.test.mjs': FILES['passes.test.mjs'] })), '');
  });
});
