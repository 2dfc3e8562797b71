import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { baselineWasmOnly } from '../../engine/bin/oneShotWasm';

describe('which CLI commands compile sql.js with the baseline compiler only (oneShotWasm.ts)', () => {
  it('short commands do, after any program options and their values', () => {
    assert.equal(baselineWasmOnly(['recall', 'redis', 'retry']), true);
    assert.equal(baselineWasmOnly(['--db', 'serve', '--json', 'get', 'm_1']), true);
    assert.equal(baselineWasmOnly(['--workspace', '/w', '--embedding', 'off', 'stats']), true);
  });

  it('long-running, hosting or unknown commands, and no command, keep TurboFan', () => {
    for (const argv of [
      ['serve', '--mcp'],
      ['scan'],
      ['import', 'memory.jsonl'],
      ['--db', 'recall', 'drift', 'check'],
      ['consolidate'],
      ['--help'],
      [],
      ['--', 'recall'],
    ])
      assert.equal(baselineWasmOnly(argv), false, argv.join(' '));
  });
});
