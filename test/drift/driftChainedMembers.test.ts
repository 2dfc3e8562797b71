import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractClaims } from '../../engine/drift/claimExtractor';
import { BEFORE_CHANGE, memoryIn, rememberAt, scannedAfterChange } from './driftHost';

const pkg = `${JSON.stringify({ name: 'thelib', main: 'index.js' }, null, 2)}\n`;
const entry = (stop: string) =>
  [
    'class Watcher {',
    '  on(event, listener) { this.listeners.push([event, listener]); return this; }',
    `  ${stop}(path) { this.paths.delete(path); return this; }`,
    '}',
    'function watch(path) { return new Watcher(path); }',
    'module.exports = { watch };',
    '',
  ].join('\n');

const EXAMPLE = [
  '```js',
  "const thelib = require('thelib');",
  "const watcher = thelib.watch('src');",
  'watcher',
  "  .on('add', (path) => log(path))",
  "  .unwatch('src');",
  '',
  "fetch('https://example.com')",
  '  .then((res) => res.json());',
  '```',
].join('\n');

/*
 * Seen on chokidar and winston (development): examples chain calls on a name that stands alone on
 * the line above (`watcher` then `.on('add', ...)`, `.on('change', ...)` on lines of their own).
 * Each link is a call of that name's member, as if written on one line.
 */
describe('drift: calls chained on a name alone on the line above', () => {
  it("are that name's members; a chain on a call's result is no one's", () => {
    const claims = extractClaims(EXAMPLE, { projectPackages: new Set(['thelib']) });
    const chained = claims.filter((c) => EXAMPLE[c.span[0]] === '.');
    assert.deepEqual(
      chained.map((c) => [c.subject, EXAMPLE.slice(c.span[0], c.span[1])]),
      [
        ['watcher.on', '.on'],
        ['watcher.unwatch', '.unwatch'],
      ],
    );
  });

  it('a member the project took away is stale with its commit; one it keeps is ok', async () => {
    const { test, changing } = await scannedAfterChange(
      { 'package.json': pkg, 'index.js': entry('unwatch') },
      'Rename unwatch() to remove()',
      { write: { 'index.js': entry('remove') } },
    );
    const id = await rememberAt(test, EXAMPLE, BEFORE_CHANGE);
    const claims = memoryIn(await test.call('drift', { all: true }), id).claims;
    const verdict = (subject: string) => claims.find((c) => c.subject === subject);
    assert.equal(verdict('watcher.on')?.verdict, 'ok');
    assert.equal(verdict('watcher.unwatch')?.verdict, 'stale');
    assert.equal(verdict('watcher.unwatch')?.evidence.commit?.hash, changing);
  });
});
