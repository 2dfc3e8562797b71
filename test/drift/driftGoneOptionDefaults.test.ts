import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BEFORE_CHANGE, memoryIn, rememberAt, scannedAfterChange } from './driftHost';

const pkg = `${JSON.stringify({ name: 'thelib', main: 'index.js' }, null, 2)}\n`;
const watcher = (options: string[]) =>
  [
    "'use strict';",
    'function watch(paths, options) {',
    '  const opts = Object.assign({ persistent: true }, options);',
    ...options.map((name) => `  if (opts.${name}) paths = literal(paths);`),
    '  return start(paths, opts);',
    '}',
    'module.exports = { watch };',
    '',
  ].join('\n');

/*
 * "`disableGlobbing` (default: `false`)" states that the option exists and what it defaults to.
 * The defaults here live nowhere a declared-default check can read (the code only reads the
 * option), so the default alone is unverifiable; once a commit removes the option, the default is
 * false too, since that commit.
 */
describe('drift: the default of an option the code no longer has', () => {
  it('is stale with the commit that removed the option; an option still read keeps its default unverifiable', async () => {
    const { test, changing } = await scannedAfterChange(
      { 'package.json': pkg, 'index.js': watcher(['disableGlobbing', 'followSymlinks']) },
      'Remove glob support',
      { write: { 'index.js': watcher(['followSymlinks']) } },
    );
    const id = await rememberAt(
      test,
      [
        '* `followSymlinks` (default: `true`). When `false`, only the links themselves are watched.',
        '* `disableGlobbing` (default: `false`). If set to `true`, globs are literal paths.',
      ].join('\n'),
      BEFORE_CHANGE,
    );
    const report = await test.call('drift', { all: true });
    const claims = memoryIn(report, id).claims;
    const gone = claims.find((c) => c.kind === 'config' && c.subject === 'disableGlobbing');
    assert.equal(gone?.verdict, 'stale', JSON.stringify(claims));
    assert.equal(gone?.evidence.commit?.hash, changing);
    const kept = claims.find((c) => c.kind === 'config' && c.subject === 'followSymlinks');
    assert.equal(kept?.verdict, 'unverifiable', JSON.stringify(kept));
  });

  // "`options.enforce` is a boolean. Defaults to `false`.": the option is written as a config key,
  // checked as one, and the key's removal takes its default with it as a symbol's does.
  it('is stale when the option, written as a config key, is gone from the workspace', async () => {
    const middleware = (reads: string) =>
      [
        'function expectCt(options = {}) {',
        `  const header = ${reads};`,
        "  return (req, res, next) => { res.setHeader('Expect-CT', header); next(); };",
        '}',
        'module.exports = { expectCt };',
        '',
      ].join('\n');
    const { test, changing } = await scannedAfterChange(
      { 'package.json': pkg, 'index.js': middleware("options.enforce ? 'enforce' : 'max-age=0'") },
      'Stop enforcing',
      { write: { 'index.js': middleware("'max-age=0'") } },
    );
    const id = await rememberAt(
      test,
      '`options.enforce` is a boolean. If `true`, the browser enforces the policy. Defaults to `false`.',
      BEFORE_CHANGE,
    );
    const claims = memoryIn(await test.call('drift', { all: true }), id).claims;
    const defaults = claims.filter(
      (c) => c.kind === 'config' && c.evidence.reason.startsWith('the option is gone'),
    );
    assert.equal(defaults.length, 1, JSON.stringify(claims));
    assert.deepEqual([defaults[0]?.verdict, defaults[0]?.evidence.commit?.hash], ['stale', changing]);
  });
});
