import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractClaims } from '../../engine/drift/claimExtractor';
import { BEFORE_CHANGE as WRITTEN, memoryIn, rememberAt, scannedAfterChange } from './driftHost';

const pkg = (fields: object) => `${JSON.stringify({ name: 'thelib', ...fields }, null, 2)}\n`;
const TEXT = [
  '* `ignored` ([anymatch](https://github.com/es128/anymatch)-compatible definition)',
  'For globs, see the low-level library [picomatch](https://github.com/micromatch/picomatch).',
  'Read [the guide](https://github.com/thelib/guide) and [`debug`](https://www.npmjs.com/package/debug).',
].join('\n');

/*
 * Seen on chokidar (development): its readme linked the option's matcher to the package it
 * depended on ("[anymatch](...)-compatible"); the package was dropped and nothing said so. A
 * link whose text is a package's name and whose target is that package's page names the package;
 * it is the project's dependency only when its manifest declared it when the memory was written.
 */
describe('drift: a package linked to its own page', () => {
  it('is a dependency claim only when the text is the name on its page', () => {
    const claims = extractClaims(TEXT).filter((c) => c.kind === 'dependency');
    assert.deepEqual(
      claims.map((c) => [c.subject, TEXT.slice(c.span[0], c.span[1]), c.usedAs]),
      [
        ['anymatch', 'anymatch', 'package'],
        ['picomatch', 'picomatch', 'package'],
        ['debug', 'debug', 'package'],
      ],
    );
  });

  // Seen on rollup (explore, development): "(e.g. [rollup-plugin-string](...))" in its plugin
  // guide, a package its own build had among its devDependencies until it dropped it.
  it('is no claim when the text offers the package as an example of a kind', () => {
    const text =
      'If it makes no sense (e.g. [rollup-plugin-string](https://github.com/TrySound/rollup-plugin-string)), return null. ' +
      'Plugins such as [picomatch](https://github.com/micromatch/picomatch) or, for example, [debug](https://www.npmjs.com/package/debug).';
    assert.deepEqual(
      extractClaims(text).filter((c) => c.kind === 'dependency'),
      [],
    );
  });

  it("takes a Node package's repository named node-NAME or NAME.js for its page, and no other name", () => {
    const text =
      'Powered by the popular [`http-proxy`](https://github.com/nodejitsu/node-http-proxy), ' +
      'rendered by [marked](https://github.com/markedjs/marked.js) and [chalk](https://github.com/x/colors).';
    const claims = extractClaims(text).filter((c) => c.kind === 'dependency');
    assert.deepEqual(
      claims.map((c) => c.subject),
      ['http-proxy', 'marked'],
    );
  });

  it('declared when written and dropped since: stale with the commit; never declared: not drift', async () => {
    const { test, changing } = await scannedAfterChange(
      { 'package.json': pkg({ dependencies: { anymatch: '^3.1.0', debug: '^4.0.0' } }) },
      'Match paths without anymatch',
      { write: { 'package.json': pkg({ dependencies: { debug: '^4.0.0' } }) } },
    );
    const id = await rememberAt(test, TEXT, WRITTEN);
    const claims = memoryIn(await test.call('drift', { all: true }), id).claims;
    const verdict = (subject: string) => claims.find((c) => c.subject === subject);
    assert.equal(verdict('anymatch')?.verdict, 'stale');
    assert.equal(verdict('anymatch')?.evidence.commit?.hash, changing);
    assert.equal(verdict('debug')?.verdict, 'ok');
    assert.notEqual(verdict('picomatch')?.verdict, 'stale', 'never a dependency of this project');
  });

  /*
   * Seen on http-proxy-middleware (development): "subscribe to http-proxy's `open` event", "[http-proxy
   * events](...node-http-proxy#...)" and "`http-proxy` [options](...node-http-proxy#options)" after
   * the project replaced http-proxy; and nodemon's "Chokidar's polling". The package is named
   * as such by its possessive or by a link to its page next to it.
   */
  it('names a package by its possessive, a link from the name with a noun, or a link right after the name', () => {
    const text = [
      "- **option.onOpen**: function, subscribe to http-proxy's `open` event; it's fine, that's all.",
      'Subscribe to [http-proxy events](https://github.com/nodejitsu/node-http-proxy#listening-for-proxy-events):',
      "_All_ `anymatch` [options](https://github.com/es128/anymatch#options) can be used. Chokidar's polling.",
      "The handler's promise and the object's keys are the reader's own.",
    ].join('\n');
    const claims = extractClaims(text).filter((c) => c.kind === 'dependency');
    assert.deepEqual(
      claims.map((c) => [c.subject, text.slice(c.span[0], c.span[1]), c.usedAs]),
      [
        ['http-proxy', 'http-proxy', 'package'],
        ['http-proxy', 'http-proxy', 'package'],
        ['anymatch', 'anymatch', 'package'],
        ['chokidar', 'Chokidar', 'package'],
      ],
    );
  });

  it("a possessive of a package declared when written and dropped since is stale; another word's is not", async () => {
    const { test, changing } = await scannedAfterChange(
      { 'package.json': pkg({ dependencies: { 'http-proxy': '^1.18.0', debug: '^4.0.0' } }) },
      'Proxy with httpxy',
      { write: { 'package.json': pkg({ dependencies: { httpxy: '^0.1.0', debug: '^4.0.0' } }) } },
    );
    const id = await rememberAt(
      test,
      "Subscribe to http-proxy's `proxyReq` event. The Server's answer goes through `debug`'s output.",
      WRITTEN,
    );
    const claims = memoryIn(await test.call('drift', { all: true }), id).claims;
    const verdict = (subject: string) => claims.find((c) => c.subject === subject);
    assert.equal(verdict('http-proxy')?.verdict, 'stale');
    assert.equal(verdict('http-proxy')?.evidence.commit?.hash, changing);
    assert.equal(verdict('debug')?.verdict, 'ok');
    assert.notEqual(verdict('server')?.verdict, 'stale', 'never a dependency of this project');
  });
});
