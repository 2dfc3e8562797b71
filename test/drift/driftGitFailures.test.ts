import assert from 'node:assert/strict';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ClaimReport } from '../../engine/drift/driftReport';
import { tempDir } from '../support/temp';
import { BEFORE_CHANGE, memoryIn, rememberAt, scannedAfterChange } from './driftHost';

/**
 * A `git` first on PATH that fails every call whose arguments hold the text in its switch file
 * (none while the file is empty), as git does when it is killed or cannot start under load, and
 * runs the real git otherwise. Drift starts git with PATH from the environment (gitEnvironment).
 */
function failingGit(): { fail: (args: string) => void } {
  const dir = tempDir('engram-failing-git-');
  const real = (process.env.PATH ?? '')
    .split(path.delimiter)
    .map((d) => path.join(d, 'git'))
    .find((p) => existsSync(p));
  assert.ok(real, 'git on PATH');
  const switchFile = path.join(dir, 'fail');
  writeFileSync(switchFile, '');
  writeFileSync(
    path.join(dir, 'git'),
    [
      '#!/bin/sh',
      `pattern=$(cat '${switchFile}')`,
      'if [ -n "$pattern" ]; then',
      '  case " $* " in *"$pattern"*) echo "fatal: simulated failure" >&2; exit 128;; esac',
      'fi',
      `exec '${real}' "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(path.join(dir, 'git'), 0o755);
  const saved = process.env.PATH;
  before(() => {
    process.env.PATH = `${dir}${path.delimiter}${saved ?? ''}`;
  });
  after(() => {
    process.env.PATH = saved;
  });
  return { fail: (args) => writeFileSync(switchFile, args) };
}

/**
 * A git call that fails is no answer: the claims it was asked for are unverifiable, saying why,
 * never a verdict built on an empty history ("not declared when the memory was written either",
 * "stale" without the commit), and the failure is not kept: the next check, git working again,
 * gives the verdict a check without the failure gives.
 */
describe('a failed git call never becomes a verdict', () => {
  const git = failingGit();

  const claimOf = (claims: readonly ClaimReport[], subject: string) => {
    const claim = claims.find((c) => c.subject === subject);
    assert.ok(claim, `a claim about ${subject} in ${JSON.stringify(claims)}`);
    return claim;
  };

  it('reading files at commits (git cat-file) failing', async () => {
    const { test, changing } = await scannedAfterChange(
      { 'package.json': JSON.stringify({ name: 'app', scripts: { lint: 'eslint .', test: 'node t.js' } }) },
      'drop the lint script',
      { write: { 'package.json': JSON.stringify({ name: 'app', scripts: { test: 'node t.js' } }) } },
    );
    const id = await rememberAt(test, 'Run `npm run lint` before every commit.', BEFORE_CHANGE);
    git.fail('cat-file');
    const failed = claimOf(memoryIn(await test.call('drift', { all: true }), id).claims, 'lint');
    assert.equal(failed.verdict, 'unverifiable');
    assert.match(failed.evidence.reason, /^could not be checked, git failed/);
    git.fail('');
    const checked = claimOf(memoryIn(await test.call('drift', { all: true }), id).claims, 'lint');
    assert.deepEqual([checked.verdict, checked.evidence.commit?.hash], ['stale', changing]);
  });

  it('looking for the commit that removed a word (git log -S) failing', async () => {
    const { test, changing } = await scannedAfterChange(
      {
        'src/tax.js': 'export function computeTax(amount) {\n  return amount * 0.2;\n}\n',
        'src/index.js': "import { computeTax } from './tax.js';\nexport const total = computeTax(10);\n",
      },
      'replace computeTax with taxOf',
      {
        write: {
          'src/tax.js': 'export function taxOf(amount) {\n  return amount * 0.2;\n}\n',
          'src/index.js': "import { taxOf } from './tax.js';\nexport const total = taxOf(10);\n",
        },
      },
    );
    const id = await rememberAt(test, 'Invoices call `computeTax()` from src/tax.js.', BEFORE_CHANGE);
    git.fail('-ScomputeTax');
    const failed = claimOf(memoryIn(await test.call('drift', { all: true }), id).claims, 'computeTax');
    assert.equal(failed.verdict, 'unverifiable');
    assert.match(failed.evidence.reason, /^could not be checked, git failed/);
    git.fail('');
    const checked = claimOf(memoryIn(await test.call('drift', { all: true }), id).claims, 'computeTax');
    assert.deepEqual([checked.verdict, checked.evidence.commit?.hash], ['stale', changing]);
  });
});
