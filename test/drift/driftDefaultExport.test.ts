import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { driftHost, memoryIn, rememberAt } from './driftHost';
import { GitRepository } from './gitRepository';

const T1 = '2025-01-10T12:00:00Z';
const BETWEEN = '2025-02-01T00:00:00Z';
const T2 = '2025-03-01T12:00:00Z';
const T3 = '2025-04-01T12:00:00Z';
const pkg = (fields: object) => `${JSON.stringify({ name: 'thelib', ...fields }, null, 2)}\n`;
const CALLED = '```js\nvar Cache = require("thelib")\n  , cache = new Cache(50)\n```';
const IMPORTED = "```js\nimport Cache from 'thelib';\nconst cache = new Cache(50);\n```";
const NAMED_IMPORT = "```js\nimport { Cache } from 'thelib';\nconst cache = new Cache(50);\n```";
const DESTRUCTURED = "... or for CommonJS:\n```js\nconst { Cache } = require('thelib');\n```";
const CLASS = 'class Cache {\n  constructor(max) {\n    this.max = max;\n  }\n}\n';

/** The verdict of `thelib` in `text` remembered between the repository's first two commits. */
async function verdict(repo: GitRepository, text: string) {
  const test = await driftHost(repo.root);
  await test.call('scan', { tokens: false });
  const id = await rememberAt(test, text, BETWEEN);
  const claims = memoryIn(await test.call('drift', { all: true }), id).claims;
  return claims.find((c) => c.subject === 'thelib');
}

/**
 * lru-cache's readme opens with `var LRU = require("lru-cache")` and `new LRU(50)`: the module
 * was the class. Its TypeScript rewrite kept `export default` (the entry now a build output,
 * `dist/commonjs/index.min.js`, not in git), and a later commit left named exports only, so the
 * `require()` still loads CommonJS but gives `{ LRUCache }`, and calling it throws.
 */
describe('drift: a required module that is called, after its entry dropped the default export', () => {
  function rewritten(dropDefault = true): { repo: GitRepository; named: string | undefined } {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: { 'package.json': pkg({ main: 'index.js' }), 'index.js': `${CLASS}module.exports = Cache;\n` },
    });
    repo.commit('typescript rewrite', T2, {
      rename: [['index.js', 'src/index.ts']],
      write: {
        'package.json': pkg({
          main: './dist/commonjs/index.min.js',
          exports: { '.': { import: './dist/esm/index.min.js', require: './dist/commonjs/index.min.js' } },
        }),
        'src/index.ts': `export ${CLASS}export default Cache;\n`,
      },
    });
    const named = dropDefault
      ? repo.commit('named export only, no default export', T3, {
          write: { 'src/index.ts': `export ${CLASS}` },
        })
      : undefined;
    return { repo, named };
  }

  it('stale with the commit that left named exports only, read from the build source', async () => {
    const { repo, named } = rewritten();
    const check = await verdict(repo, CALLED);
    assert.equal(check?.verdict, 'stale');
    assert.equal(check?.evidence.commit?.hash, named, 'not the rewrite, which kept a default');
    assert.match(check?.evidence.reason ?? '', /src\/index\.ts has named exports only/);
    const imported = await verdict(repo, IMPORTED);
    assert.equal(imported?.verdict, 'stale', 'a default import called');
    assert.equal(imported?.evidence.commit?.hash, named);
    assert.equal((await verdict(repo, NAMED_IMPORT))?.verdict, 'ok', 'a named import');
  });

  it('holds while a default is exported, and for destructured names after it is gone', async () => {
    assert.equal((await verdict(rewritten(false).repo, CALLED))?.verdict, 'ok');
    const { repo } = rewritten();
    assert.equal((await verdict(repo, DESTRUCTURED))?.verdict, 'ok', 'named exports serve it');
  });

  it('says nothing when the entry re-exports another file, or was never a default', async () => {
    const reexport = new GitRepository();
    reexport.commit('initial', T1, {
      write: { 'package.json': pkg({ main: 'index.js' }), 'index.js': `${CLASS}module.exports = Cache;\n` },
    });
    reexport.commit('moved', T2, {
      write: {
        'index.js': "module.exports = require('./lib/cache');\n",
        'lib/cache.js': `${CLASS}exports.Cache = Cache;\n`,
      },
    });
    assert.equal((await verdict(reexport, CALLED))?.verdict, 'ok');
    const never = new GitRepository();
    never.commit('initial', T1, {
      write: { 'package.json': pkg({ main: 'index.js' }), 'index.js': `${CLASS}exports.Cache = Cache;\n` },
    });
    never.commit('more', T2, { write: { 'index.js': `${CLASS}exports.Cache = Cache;\nexports.max = 1;\n` } });
    assert.equal((await verdict(never, CALLED))?.verdict, 'ok');
  });
});
