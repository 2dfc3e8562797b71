import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractClaims } from '../../engine/drift/claimExtractor';
import { driftHost, memoryIn, rememberAt } from './driftHost';
import { GitRepository } from './gitRepository';

const T1 = '2025-01-10T12:00:00Z';
const BETWEEN = '2025-02-01T00:00:00Z';
const T2 = '2025-03-01T12:00:00Z';
const pkg = (fields: object) => `${JSON.stringify({ name: 'thelib', ...fields }, null, 2)}\n`;
const USAGE = [
  '```js',
  "const thelib = require('thelib');",
  "const { hideBin } = require('thelib/helpers');",
  "thelib('x', hideBin(process.argv));",
  '```',
].join('\n');
const CALLED = "```js\nconst thelib = require('thelib');\nthelib();\n```";

/** The verdicts of `thelib` and `thelib/helpers` in USAGE remembered between the repository's two commits. */
async function verdicts(repo: GitRepository, text = USAGE) {
  const test = await driftHost(repo.root);
  await test.call('scan', { tokens: false });
  const id = await rememberAt(test, text, BETWEEN);
  const claims = memoryIn(await test.call('drift', { all: true }), id).claims;
  return (subject: string) => claims.find((c) => c.subject === subject);
}

/**
 * `const thelib = require('thelib'); thelib(...)` in a memory calls the package's CommonJS export.
 * When the package becomes ES modules only, the example no longer works: execa's readme kept
 * `const execa = require('execa')` in five places its ESM-only release made false. Members and
 * destructured names still work on the namespace a `require()` of ES modules gives (mocha's
 * `require('mocha').describe` holds), so only a call of the module itself is checked.
 */
describe('drift: a package required as CommonJS that became ES modules only', () => {
  it('marks a required package the text calls, not destructured, member-only or imported ones', () => {
    const text = `${USAGE}\n\`\`\`js\nimport thelib from 'thelib';\nconst other = require('thelib');\nother.parse();\nvar it = require('thelib').it;\nit('works');\n\`\`\``;
    const claims = extractClaims(text, { projectPackages: new Set(['thelib']) }).filter(
      (c) => c.kind === 'subpath',
    );
    assert.deepEqual(
      claims.map((c) => [c.subject, c.requiredCallable]),
      [
        ['thelib', true],
        ['thelib/helpers', undefined],
        ['thelib', undefined],
        ['thelib', undefined],
        ['thelib', undefined],
      ],
    );
  });

  it('marks a require() the text introduces as the CommonJS way, destructured or not', () => {
    const text = [
      '... or for CommonJS:',
      '```js',
      "const { v4 } = require('thelib');",
      '```',
      'Any module system:',
      '```js',
      "const { v5 } = require('thelib');",
      '```',
    ].join('\n');
    const claims = extractClaims(text, { projectPackages: new Set(['thelib']) }).filter(
      (c) => c.kind === 'subpath',
    );
    assert.deepEqual(
      claims.map((c) => c.requiredCallable),
      [true, undefined],
    );
  });

  it('"type": "module" with .js entries: stale with the commit that made it so', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: {
        'package.json': pkg({
          main: 'index.js',
          exports: { '.': './index.js', './helpers': './helpers.js' },
        }),
        'index.js': 'module.exports = () => 1;\n',
        'helpers.js': 'exports.hideBin = (a) => a;\n',
      },
    });
    const esm = repo.commit('ESM only', T2, {
      write: {
        'package.json': pkg({
          type: 'module',
          exports: { '.': { types: './index.d.ts', default: './index.js' }, './helpers': './helpers.js' },
        }),
        'index.js': 'export default () => 1;\n',
        'helpers.js': 'export const hideBin = (a) => a;\n',
      },
    });
    const verdict = await verdicts(repo);
    assert.equal(verdict('thelib')?.verdict, 'stale');
    assert.equal(verdict('thelib')?.evidence.commit?.hash, esm);
    assert.match(verdict('thelib')?.evidence.reason ?? '', /ES modules only/);
    assert.equal(verdict('thelib')?.evidence.repair, undefined, 'the import form is for a person to write');
    assert.equal(verdict('thelib/helpers')?.verdict, 'ok', 'a destructured require works on the namespace');
    const members = await verdicts(repo, "```js\nconst thelib = require('thelib');\nthelib.parse();\n```");
    assert.equal(members('thelib')?.verdict, 'ok', 'members work on the namespace');
  });

  it('no exports map: a main .js under "type": "module" is ES modules; main .cjs stays CommonJS', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: { 'package.json': pkg({ main: 'index.js' }), 'index.js': 'module.exports = 1;\n' },
    });
    const esm = repo.commit('type module', T2, {
      write: { 'package.json': pkg({ type: 'module', main: 'index.js' }), 'index.js': 'export default 1;\n' },
    });
    const gone = await verdicts(repo, CALLED);
    assert.equal(gone('thelib')?.verdict, 'stale');
    assert.equal(gone('thelib')?.evidence.commit?.hash, esm);

    const cjs = new GitRepository();
    cjs.commit('initial', T1, {
      write: { 'package.json': pkg({ main: 'index.js' }), 'index.js': 'module.exports = 1;\n' },
    });
    cjs.commit('type module, CommonJS entry kept', T2, {
      write: {
        'package.json': pkg({ type: 'module', main: 'index.cjs' }),
        'index.cjs': 'module.exports = 1;\n',
      },
    });
    const kept = await verdicts(cjs, CALLED);
    assert.equal(kept('thelib')?.verdict, 'ok');
  });

  it('a package without exports or main that gains an ESM-only exports map: stale', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: { 'package.json': pkg({}), 'index.js': 'module.exports = () => 1;\n' },
    });
    const esm = repo.commit('ESM only', T2, {
      write: {
        'package.json': pkg({ type: 'module', exports: { types: './index.d.ts', default: './index.js' } }),
        'index.js': 'export const thelib = () => 1;\n',
      },
    });
    const verdict = await verdicts(repo, CALLED);
    assert.equal(verdict('thelib')?.verdict, 'stale');
    assert.equal(verdict('thelib')?.evidence.commit?.hash, esm);
  });

  it('a require condition under "type": "module" is CommonJS: stale only when it is dropped', async () => {
    const T3 = '2025-04-01T12:00:00Z';
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: { 'package.json': pkg({ main: 'index.js' }), 'index.js': 'module.exports = 1;\n' },
    });
    // uuid's TypeScript port: type module, `require` leads to dist/cjs/*.js (a built package.json says commonjs).
    repo.commit('type module, require condition kept', T2, {
      write: {
        'package.json': pkg({
          type: 'module',
          exports: { '.': { node: { require: './dist/cjs/index.js', import: './index.js' } } },
        }),
      },
    });
    const dropped = repo.commit('drop CommonJS', T3, {
      write: { 'package.json': pkg({ type: 'module', exports: { '.': { default: './index.js' } } }) },
    });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const id = await rememberAt(test, CALLED, BETWEEN);
    const claim = memoryIn(await test.call('drift', { all: true }), id).claims.find(
      (c) => c.subject === 'thelib',
    );
    assert.equal(claim?.verdict, 'stale');
    assert.equal(claim?.evidence.commit?.hash, dropped);
  });

  it('stays ok with a require condition, for import examples, and when it was never CommonJS', async () => {
    const dual = new GitRepository();
    dual.commit('initial', T1, {
      write: { 'package.json': pkg({ main: 'index.js' }), 'index.js': 'module.exports = 1;\n' },
    });
    dual.commit('dual package', T2, {
      write: {
        'package.json': pkg({
          type: 'module',
          exports: {
            '.': { import: './index.js', require: './index.cjs' },
            './helpers': { import: './helpers.js', require: './helpers.cjs' },
          },
        }),
        'index.cjs': 'module.exports = 1;\n',
        'helpers.cjs': 'exports.hideBin = 1;\n',
      },
    });
    const both = await verdicts(dual);
    assert.equal(both('thelib')?.verdict, 'ok');
    assert.equal(both('thelib/helpers')?.verdict, 'ok');

    const imported = new GitRepository();
    imported.commit('initial', T1, {
      write: { 'package.json': pkg({ main: 'index.js' }), 'index.js': 'module.exports = 1;\n' },
    });
    imported.commit('ESM only', T2, {
      write: {
        'package.json': pkg({ type: 'module', exports: './index.js' }),
        'index.js': 'export default 1;\n',
      },
    });
    const asImport = await verdicts(imported, "```js\nimport thelib from 'thelib';\n```");
    assert.equal(asImport('thelib')?.verdict, 'ok');

    const always = new GitRepository();
    always.commit('initial', T1, {
      write: {
        'package.json': pkg({ type: 'module', exports: './index.js' }),
        'index.js': 'export default 1;\n',
      },
    });
    always.commit('unrelated', T2, { write: { 'README.md': '# thelib\n' } });
    const never = await verdicts(always, CALLED);
    assert.notEqual(never('thelib')?.verdict, 'stale', 'a memory wrong from the start did not drift');
  });

  it('a package.json nearer to the entry may make it CommonJS again: not flagged', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: { 'package.json': pkg({ main: 'index.js' }), 'index.js': 'module.exports = 1;\n' },
    });
    repo.commit('build to dist', T2, {
      write: {
        'package.json': pkg({ type: 'module', exports: { '.': { default: './dist/cjs/index.js' } } }),
        'dist/cjs/package.json': '{ "type": "commonjs" }\n',
        'dist/cjs/index.js': 'module.exports = 1;\n',
      },
    });
    const verdict = await verdicts(repo, CALLED);
    assert.equal(verdict('thelib')?.verdict, 'ok');
  });
});
