import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractClaims } from '../../engine/drift/claimExtractor';
import { driftHost, memoryIn, rememberAt } from './driftHost';
import { GitRepository } from './gitRepository';

const T1 = '2025-01-10T12:00:00Z';
const BETWEEN = '2025-02-01T00:00:00Z';
const T2 = '2025-03-01T12:00:00Z';
const pkg = (fields: object) => `${JSON.stringify({ name: 'thelib', ...fields }, null, 2)}\n`;

/*
 * The project's own package as npm publishes it: installed by name, its registry page, a CDN's
 * copy of one of its files. Seen unextracted in eight development repositories' labels (bench:drift
 * --misses: `npm install chokidar`, `npm i fastify --save`, `https://unpkg.com/mocha/mocha.js`).
 */
describe('drift: the package as published', () => {
  it('install commands, registry pages and CDN files of the project claim it; other packages do not', () => {
    const text = [
      '```sh',
      'npm install --save-dev thelib otherlib',
      '$ yarn add thelib@2',
      'npm install thelib-plugin',
      '```',
      'Or `npm i thelib --save`; see [npm](https://www.npmjs.com/package/thelib) and',
      '<script src="https://unpkg.com/thelib@1.2.0/dist/thelib.min.js"></script>',
      '<link href="https://cdn.jsdelivr.net/npm/thelib/thelib.css">',
    ].join('\n');
    const claims = extractClaims(text, { projectPackages: new Set(['thelib']) }).filter((c) => c.published);
    assert.deepEqual(
      claims.map((c) => [c.kind, c.subject, text.slice(c.span[0], c.span[1])]),
      [
        ['subpath', 'thelib', 'thelib'],
        ['subpath', 'thelib', 'thelib'],
        ['subpath', 'thelib', 'thelib'],
        ['subpath', 'thelib', 'thelib'],
        ['subpath', 'thelib/dist/thelib.min.js', 'thelib@1.2.0/dist/thelib.min.js'],
        ['subpath', 'thelib/thelib.css', 'thelib/thelib.css'],
      ],
    );
  });

  it('a CDN file: tracked or listed in `files` holds whatever `exports` offers; dropped from `files` is stale', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: {
        'package.json': pkg({
          main: 'index.js',
          files: ['index.js', 'thelib.css', 'thelib.js', 'legacy.js', 'dist'],
        }),
        'index.js': 'module.exports = 1;\n',
        'thelib.css': 'body {}\n',
      },
    });
    const dropping = repo.commit('Stop publishing the legacy bundle', T2, {
      write: {
        'package.json': pkg({
          exports: { '.': './index.js' },
          files: ['index.js', 'thelib.css', 'thelib.js', 'dist'],
        }),
      },
    });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const id = await rememberAt(
      test,
      [
        'Install with `npm install thelib`, or load it in a page:',
        '```html',
        '<link rel="stylesheet" href="https://unpkg.com/thelib/thelib.css" />',
        '<script src="https://unpkg.com/thelib/thelib.js"></script>',
        '<script src="https://unpkg.com/thelib/legacy.js"></script>',
        '<script src="https://unpkg.com/thelib/dist/umd/thelib.min.js"></script>',
        '```',
      ].join('\n'),
      BETWEEN,
    );
    const claims = memoryIn(await test.call('drift', { all: true }), id).claims;
    const check = (subject: string) => {
      const c = claims.find((x) => x.subject === subject);
      return [c?.verdict, c?.evidence.commit?.hash];
    };
    assert.deepEqual(check('thelib'), ['ok', undefined]);
    assert.deepEqual(check('thelib/thelib.css'), ['ok', undefined], 'tracked, though exports leaves it out');
    assert.deepEqual(check('thelib/thelib.js'), ['ok', undefined], 'a build output files lists');
    assert.deepEqual(check('thelib/legacy.js'), ['stale', dropping]);
    assert.equal(check('thelib/dist/umd/thelib.min.js')[0], 'unverifiable', 'only a folder entry covers it');
  });
});
