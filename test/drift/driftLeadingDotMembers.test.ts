import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BEFORE_CHANGE, memoryIn, rememberAt, scannedAfterChange } from './driftHost';

const pkg = `${JSON.stringify({ name: 'thelib', main: 'index.js' }, null, 2)}\n`;
// A test fixture's manifest names another package, `tests`: not the project's own receiver.
const fixturePkg = `${JSON.stringify({ name: 'tests' }, null, 2)}\n`;
const entry = (members: string) =>
  [
    "'use strict';",
    'function thelib(file, options) { return run(file, options); }',
    // The word survives in an option of another object: presence by the word would say "ok".
    'const spawnDefaults = { node: false };',
    members,
    'class Watcher {',
    '  on(event, listener) { return this.emitter.on(event, listener); }',
    '}',
    'module.exports = thelib;',
    '',
  ].join('\n');
// `only` stays a method of `describe`; the fixture package's `tests.only` goes.
const scripts = (only: boolean) =>
  [
    'const tests = {};',
    'describe.only = function (title) { return run(title); };',
    ...(only ? ['tests.only = function () { return run("only"); };'] : []),
    '',
  ].join('\n');

/*
 * The cause 5: docs write the package's own methods with a leading dot and no receiver
 * ("For `.node()` only"). Such a name is a member of the package: stale once the package no
 * longer defines it, whatever else keeps a method of that name; a method of another object (the
 * watcher's `.on()`) or of another manifest's name (`tests`) is never taken for the package's.
 */
describe('drift: `.name()` in the docs is a member of the package', () => {
  it('stale when taken off the package; a method of another object, or of a fixture package, is not', async () => {
    const { test, changing } = await scannedAfterChange(
      {
        'package.json': pkg,
        'fixtures/package.json': fixturePkg,
        'index.js': entry('thelib.node = function (script) { return thelib(process.execPath, [script]); };'),
        'package-scripts.js': scripts(true),
      },
      'Replace thelib.node() with a named export',
      {
        write: {
          'index.js': entry('function thelibNode(script) { return thelib(process.execPath, [script]); }'),
          'package-scripts.js': scripts(false),
        },
      },
    );
    const node = await rememberAt(test, '#### nodeOptions *(For `.node()` only)*', BEFORE_CHANGE);
    const on = await rememberAt(test, "Listen with `.on('change', fn)` on the watcher.", BEFORE_CHANGE);
    const only = await rememberAt(test, 'Do not commit `.only()` calls.', BEFORE_CHANGE);
    const report = await test.call('drift', { all: true });

    const member = memoryIn(report, node).claims.find((c) => c.subject === 'thelib.node');
    assert.equal(member?.verdict, 'stale', JSON.stringify(memoryIn(report, node).claims));
    assert.equal(member?.evidence.reason, 'no longer a member of the package');
    assert.equal(member?.evidence.commit?.hash, changing);
    const method = memoryIn(report, on).claims.find((c) => c.subject === 'thelib.on');
    assert.equal(method?.verdict, 'ok', JSON.stringify(memoryIn(report, on).claims));
    const fixture = memoryIn(report, only).claims.find((c) => c.subject === 'thelib.only');
    assert.notEqual(fixture?.verdict, 'stale', JSON.stringify(memoryIn(report, only).claims));
  });
});
