import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../support/temp';
import { engramProcess } from './engramCli';

/**
 * The built `dist/cli.js` as a user runs it: its own process, its bundled wasm and model paths,
 * exit codes, stdout and stderr. Everything else about the CLI runs in process (cli.test.ts).
 */
describe('the built CLI binary (dist/cli.js)', () => {
  it('remembers and recalls across two processes, with the exit codes and one JSON document', () => {
    const dir = tempDir();
    const remembered = engramProcess(dir, ['--json', 'remember', 'Deploys run on Fridays', '--tags', 'ops']);
    assert.equal(remembered.code, 0, remembered.err);
    const id = (JSON.parse(remembered.out) as { memory: { id: string } }).memory.id;
    assert.ok(existsSync(path.join(dir, '.engram', 'memory.db')));
    const recalled = engramProcess(dir, ['recall', 'when do deploys run?']);
    assert.equal(recalled.code, 0, recalled.err);
    assert.match(recalled.out, /Deploys run on Fridays/);
    assert.match(engramProcess(dir, ['get', id]).out, /Deploys run on Fridays/);
    const missing = engramProcess(dir, ['get', 'm_00000000000000000000']);
    assert.deepEqual(
      [missing.code, missing.err],
      [2, 'engram: no memory with id "m_00000000000000000000"\n'],
    );
    const usage = engramProcess(dir, ['remember']);
    assert.equal(usage.code, 1);
    assert.equal(usage.err.trim().split('\n').length, 1, usage.err);
  });

  it('refuses a 1 MB query given as arguments with one line, without stalling', () => {
    const dir = tempDir();
    // 1,000 arguments of 999 characters: the operating system passes them, the CLI must refuse them.
    const words = Array.from({ length: 1000 }, () => 'a'.repeat(999));
    const result = engramProcess(dir, ['recall', ...words], {}, 60_000);
    assert.equal(result.code, 1, result.err);
    assert.equal(result.err, 'engram: query is 999999 characters; the limit is 4000\n');
  });
});
