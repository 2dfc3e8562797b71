import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { driftHost, fixAccepted, memoryIn, rememberAt } from './driftHost';
import { GitRepository } from './gitRepository';

const T1 = '2025-01-10T12:00:00Z';
const BEFORE_CHANGE = '2025-02-01T00:00:00Z';
const T2 = '2025-03-01T12:00:00Z';
const T3 = '2025-04-01T12:00:00Z';

describe('drift follows a file to its .cjs/.mjs name, even when git sees no rename', () => {
  it('lib/runner.js rewritten as lib/runner.cjs in one commit is moved there, dated at that commit', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: {
        'lib/runner.js': "'use strict';\nvar run = function () {\n  return 1;\n};\nmodule.exports = run;\n",
        'lib/other.js': 'module.exports = 2;\n',
      },
    });
    const converting = repo.commit('Make the package a module: CommonJS files become .cjs', T2, {
      remove: ['lib/runner.js', 'lib/other.js'],
      write: {
        'lib/runner.cjs':
          'const { EventEmitter } = require("node:events");\n\nclass Runner extends EventEmitter {\n  constructor(suite, opts) {\n    super();\n    this.suite = suite;\n    this.opts = opts;\n  }\n}\n\nmodule.exports = { Runner };\n',
      },
    });
    // An .mjs of a deleted file's name added by a later commit is another file, not its new home.
    repo.commit('A new ESM module', T3, { write: { 'lib/other.mjs': 'export default 2;\n' } });
    const test = await driftHost(repo.root);
    const runner = await rememberAt(test, 'Tests are run by lib/runner.js.', BEFORE_CHANGE);
    const other = await rememberAt(test, 'The constant lives in lib/other.js.', BEFORE_CHANGE);

    const report = await test.call('drift', { all: true });
    const claim = memoryIn(report, runner).claims.find((c) => c.kind === 'path');
    assert.equal(claim?.verdict, 'moved');
    assert.equal(claim?.evidence.target, 'lib/runner.cjs');
    assert.equal(claim?.evidence.commit?.hash, converting);
    assert.equal(memoryIn(report, other).claims.find((c) => c.kind === 'path')?.verdict, 'stale');

    await fixAccepted(test);
    assert.equal((await test.call('get', { id: runner })).memory.content, 'Tests are run by lib/runner.cjs.');
  });

  it("a link to a file of the project's own repository on its main branch is a path claim, repaired in place", async () => {
    const repo = new GitRepository();
    const source = Array.from({ length: 20 }, (_, i) => `exports.step${i} = ${i};`).join('\n');
    repo.commit('initial', T1, {
      write: {
        'package.json': '{ "name": "app" }\n',
        'lib/app.js': `${source}\n`,
        'lib/old.js': 'module.exports = 1;\n',
      },
    });
    const renaming = repo.commit('lib/app.js is CommonJS: .cjs', T2, {
      rename: [['lib/app.js', 'lib/app.cjs']],
      remove: ['lib/old.js'],
    });
    const test = await driftHost(repo.root);
    const id = await rememberAt(
      test,
      'Read the [source](https://github.com/acme/app/blob/main/lib/app.js), ' +
        'the [first release](https://github.com/acme/app/blob/v1.0.0/lib/old.js) and ' +
        '[theirs](https://github.com/other/tool/blob/main/lib/old.js).',
      BEFORE_CHANGE,
    );

    const report = await test.call('drift', { all: true });
    const claims = memoryIn(report, id).claims.filter((c) => c.kind === 'path');
    assert.deepEqual(
      claims.map((c) => [c.subject, c.verdict, c.evidence.target]),
      [['lib/app.js', 'moved', 'lib/app.cjs']],
    );
    assert.equal(claims[0]?.evidence.commit?.hash, renaming);

    await fixAccepted(test);
    assert.match(
      (await test.call('get', { id })).memory.content,
      /^Read the \[source\]\(https:\/\/github\.com\/acme\/app\/blob\/main\/lib\/app\.cjs\), the \[first release\]\(https:\/\/github\.com\/acme\/app\/blob\/v1\.0\.0\/lib\/old\.js\)/,
    );
  });
});
