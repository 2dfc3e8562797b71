import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { writeRequireHook } from '../support/requireHook';
import { tempDir } from '../support/temp';
import { GitRepository } from './gitRepository';

const DIST = path.join(__dirname, '..', '..', 'dist');
const CLI = path.join(DIST, 'cli.js');
/** Whether a loaded file is gpt-tokenizer, bundled or not: the bundles count with dist/lazy/o200k.bin. */
const isTokenizerLibrary = (file: string) => /gpt-?tokenizer/i.test(file);
/** engineCore.js was 6 MB while gpt-tokenizer's tables and hnswlib were bundled into it. */
const MAX_DRIFT_JAVASCRIPT_BYTES = 3_000_000;

/**
 * Runs `engram ARGS` as its own process with a hook that lists, at exit, every JavaScript file the
 * process loaded through require (what it read and compiled).
 */
function loadedBy(dir: string, args: string[]): string[] {
  const list = path.join(dir, `loaded-${args[0]}.json`);
  const hook = path.join(dir, 'listLoaded.js');
  writeFileSync(
    hook,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, JSON.stringify(Object.keys(require.cache))));\n`,
  );
  const run = spawnSync(
    process.execPath,
    ['--require', hook, CLI, '--db', path.join(dir, 'memory.db'), ...args],
    {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, ENGRAM_DB: '', ENGRAM_USER_DB: path.join(dir, 'user.db') },
    },
  );
  assert.equal(run.status, 0, run.stderr);
  return (JSON.parse(readFileSync(list, 'utf8')) as string[]).filter((f) => f !== hook);
}

/**
 * A re-check is a new `engram drift` process, so what starting the CLI reads and compiles counts
 * against its 2 s (issue 13): libraries drift never calls stay in their own bundles until asked for.
 */
describe('what a drift check loads', () => {
  it('`engram drift` reads the engine bundle without the tokenizer; `context` counts without gpt-tokenizer', () => {
    const repo = new GitRepository();
    repo.commit('initial', '2025-01-10T12:00:00Z', { write: { 'src/app.ts': 'export const port = 1;\n' } });
    const dir = tempDir();
    // A special token in a memory is text too: the rank table counts it (engine/retrieval/bpeCount.ts).
    const memory = 'The port is set in src/app.ts; the sampler stops at <|endoftext|>';
    const remembered = loadedBy(dir, ['--workspace', repo.root, 'remember', memory]);
    assert.ok(remembered.length > 0, 'the hook lists loaded files');

    const drift = loadedBy(dir, ['--workspace', repo.root, '--json', 'drift', '--all']);
    const fromDist = drift.filter((f) => f.startsWith(DIST));
    const bytes = fromDist.reduce((sum, f) => sum + statSync(f).size, 0);
    assert.ok(
      bytes < MAX_DRIFT_JAVASCRIPT_BYTES,
      `drift loaded ${bytes} bytes of JavaScript: ${fromDist.map((f) => path.relative(DIST, f)).join(', ')}`,
    );
    assert.deepEqual(drift.filter(isTokenizerLibrary), [], 'drift never counts tokens');

    // context counts tokens, with the rank table beside the bundles (dist/lazy/o200k.bin), which
    // loads in milliseconds.
    const context = loadedBy(dir, ['--workspace', repo.root, 'context', 'which port?']);
    assert.deepEqual(context.filter(isTokenizerLibrary), [], 'context loaded gpt-tokenizer');
  });

  it('a second CLI process compiles the engine bundle from the code cache the first one left', () => {
    const dir = tempDir();
    const tmp = tempDir();
    // Records how the bundle was compiled: whether cached data came and whether V8 took it.
    const { hook, log } = writeRequireHook(dir, 'compiles', (logFile) => [
      "const vm = require('node:vm');",
      "const fs = require('node:fs');",
      'const Script = vm.Script;',
      'vm.Script = class extends Script {',
      '  constructor(code, options) {',
      '    super(code, options);',
      '    if (options?.filename?.endsWith("engineCore.js"))',
      `      fs.appendFileSync(${logFile}, (options.cachedData ? (this.cachedDataRejected ? 'rejected' : 'cached') : 'compiled') + '\\n');`,
      '  }',
      '};',
    ]);
    const run = () =>
      spawnSync(process.execPath, ['--require', hook, CLI, '--db', path.join(dir, 'memory.db'), 'stats'], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, TMPDIR: tmp, ENGRAM_DB: '', ENGRAM_USER_DB: path.join(dir, 'user.db') },
      });
    for (let i = 0; i < 2; i++) assert.equal(run().status, 0);
    assert.deepEqual(readFileSync(log, 'utf8').split('\n').filter(Boolean), ['compiled', 'cached']);
  });
});
