import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractClaims } from '../../engine/drift/claimExtractor';
import { driftHost, memoryIn, rememberAt } from './driftHost';
import { GitRepository } from './gitRepository';

const T1 = '2025-01-10T12:00:00Z';
const BETWEEN = '2025-02-01T00:00:00Z';
const T2 = '2025-03-01T12:00:00Z';
const pkg = (fields: object) => `${JSON.stringify({ name: 'thelib', ...fields }, null, 2)}\n`;

/**
 * `thelib/file` names a subpath the package offers importers: through its `exports` map when it
 * has one, else through a file Node resolves. Issue 13 found such subpaths unextracted.
 */
describe('drift: subpaths of the project’s package', () => {
  it('are claimed in inline code and in example strings, not for other packages', () => {
    const text = [
      'Use the `thelib/file` transport, not `otherlib/file`.',
      '```js',
      "const { hideBin } = require('thelib/helpers')",
      '```',
    ].join('\n');
    const claims = extractClaims(text, { projectPackages: new Set(['thelib']) }).filter(
      (c) => c.kind === 'subpath',
    );
    assert.deepEqual(
      claims.map((c) => c.subject),
      ['thelib/file', 'thelib/helpers'],
    );
  });

  it('an exports map: kept holds, dropped is stale with its commit, never offered is unverifiable', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: {
        'package.json': pkg({ exports: { '.': './index.js', './file': './file.js', './kept': './kept.js' } }),
        'index.js': 'module.exports = 1;\n',
      },
    });
    const dropping = repo.commit('Stop exporting ./file', T2, {
      write: { 'package.json': pkg({ exports: { '.': './index.js', './kept': './kept.js' } }) },
    });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const id = await rememberAt(
      test,
      'Log with `thelib/file`; `thelib/kept` and `thelib/never` too.',
      BETWEEN,
    );
    const claims = memoryIn(await test.call('drift', { all: true }), id).claims;
    const verdict = (subject: string) => claims.find((c) => c.subject === subject);
    assert.equal(verdict('thelib/file')?.verdict, 'stale');
    assert.equal(verdict('thelib/file')?.evidence.commit?.hash, dropping);
    assert.equal(verdict('thelib/kept')?.verdict, 'ok');
    assert.equal(verdict('thelib/never')?.verdict, 'unverifiable');
  });

  it('left out of the map but served by the project itself, or a declaration file it has, still holds', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: {
        'package.json': pkg({}),
        'index.js': '1;\n',
        'client.d.ts': 'export {};\n',
        'polyfill.js': '1;\n',
      },
    });
    const mapping = repo.commit('Add an exports map', T2, {
      write: {
        'package.json': pkg({ exports: { '.': './index.js' } }),
        'plugin.js': "export const polyfillId = 'thelib/polyfill';\n",
      },
    });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const id = await rememberAt(
      test,
      "Types are in `thelib/client.d.ts`.\n```js\nimport 'thelib/polyfill'\nimport 'thelib/polyfill.js'\n```",
      BETWEEN,
    );
    const claims = memoryIn(await test.call('drift', { all: true }), id).claims;
    const verdict = (subject: string) => claims.find((c) => c.subject === subject);
    assert.equal(verdict('thelib/client.d.ts')?.verdict, 'ok', JSON.stringify(claims));
    assert.equal(verdict('thelib/polyfill')?.verdict, 'ok', JSON.stringify(claims));
    // The same module through its file: the map refuses importers, which is what it is for.
    assert.equal(verdict('thelib/polyfill.js')?.verdict, 'stale');
    assert.equal(verdict('thelib/polyfill.js')?.evidence.commit?.hash, mapping);
  });

  it('no exports map: the file Node resolves; its deletion is the change', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: { 'package.json': pkg({}), 'file.js': 'module.exports = 1;\n', 'lib/helpers/index.js': '1;\n' },
    });
    const deleting = repo.commit('Remove file.js', T2, { remove: ['file.js'] });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const id = await rememberAt(test, 'Use `thelib/file` or `thelib/lib/helpers`.', BETWEEN);
    const claims = memoryIn(await test.call('drift', { all: true }), id).claims;
    const file = claims.find((c) => c.subject === 'thelib/file');
    assert.equal(file?.verdict, 'stale');
    assert.equal(file?.evidence.commit?.hash, deleting);
    assert.equal(claims.find((c) => c.subject === 'thelib/lib/helpers')?.verdict, 'ok');
  });

  it('`require(pkg)` and `from pkg` claim the main entry: `main` without a map, `.` with one', async () => {
    const text = "```js\nconst thelib = require('thelib')\nimport other from 'otherlib'\n```";
    assert.deepEqual(
      extractClaims(text, { projectPackages: new Set(['thelib']) })
        .filter((c) => c.kind === 'subpath')
        .map((c) => [c.subject, text.slice(c.span[0], c.span[1])]),
      [['thelib', 'thelib']],
    );
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: { 'package.json': pkg({ main: 'lib/thelib.js' }), 'lib/thelib.js': 'module.exports = 1;\n' },
    });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const main = await rememberAt(test, "```js\nconst thelib = require('thelib')\nthelib()\n```", BETWEEN);
    const report = await test.call('drift', { all: true });
    assert.equal(report.memories.find((m) => m.id === main)?.status ?? 'ok', 'ok');

    const mapping = repo.commit('Export only the CLI', T2, {
      write: { 'package.json': pkg({ main: 'lib/thelib.js', exports: { './cli': './lib/cli.js' } }) },
    });
    const again = await rememberAt(test, "Load it with `import thelib from 'thelib'`.", BETWEEN);
    const claim = memoryIn(await test.call('drift', { all: true }), again).claims.find(
      (c) => c.kind === 'subpath',
    );
    assert.deepEqual([claim?.subject, claim?.verdict], ['thelib', 'stale']);
    assert.equal(claim?.evidence.commit?.hash, mapping);
  });
});
