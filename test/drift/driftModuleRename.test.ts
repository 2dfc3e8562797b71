import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DriftReport, MemoryDrift } from '../../engine/drift/driftReport';
import { driftHost, fixAccepted, rememberAt } from './driftHost';
import { GitRepository } from './gitRepository';

const T1 = '2025-01-10T12:00:00Z';
const BEFORE_CHANGE = '2025-02-01T00:00:00Z';
const T2 = '2025-03-01T12:00:00Z';
const T3 = '2025-04-01T12:00:00Z';

function memoryIn(report: DriftReport, id: string): MemoryDrift {
  const memory = report.memories.find((m) => m.id === id);
  assert.ok(memory, `memory ${id} not in the report: ${JSON.stringify(report.memories)}`);
  return memory;
}

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
});
