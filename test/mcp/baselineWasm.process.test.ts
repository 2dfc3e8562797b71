import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { bridgeCompilesBaselineOnly } from '../../engine/mcp/baselineWasm';
import { writeRequireHook } from '../support/requireHook';
import { tempDir } from '../support/temp';
import { callTool, startBridge, tempWorkspace } from './bridgeProcess';

/**
 * A hook loaded before dist/mcp.js that logs, in order, every V8 flag the process sets and every
 * WebAssembly module it compiles in its main thread (sql.js's, when the engine opens).
 */
function compileLogHook(dir: string): { hook: string; log: string } {
  return writeRequireHook(dir, 'compileLog', (log) => [
    "const fs = require('node:fs');",
    "const v8 = require('node:v8');",
    `const note = (line) => fs.appendFileSync(${log}, line + '\\n');`,
    'const setFlags = v8.setFlagsFromString;',
    "v8.setFlagsFromString = (flags) => { note('flags ' + flags); return setFlags(flags); };",
    'const Module = WebAssembly.Module;',
    "WebAssembly.Module = new Proxy(Module, { construct(target, args) { note('wasm module'); return new target(...args); } });",
  ]);
}

describe('which bridges compile wasm with Liftoff only (engine/mcp/baselineWasm.ts)', () => {
  it('a stdio bridge without a model sets --liftoff-only before sql.js compiles', async () => {
    const { hook, log } = compileLogHook(tempDir());
    const bridge = await startBridge(tempWorkspace(), { nodeArgs: ['--require', hook] });
    try {
      await callTool(bridge.client, 'memory_remember', { content: 'The retry budget is three attempts' });
      const hits = await callTool<{ hits: unknown[] }>(bridge.client, 'memory_recall', {
        query: 'retry budget',
      });
      assert.equal(hits.hits.length, 1);
    } finally {
      await bridge.close();
    }
    const events = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    const flag = events.indexOf('flags --liftoff-only');
    assert.ok(flag >= 0, `no --liftoff-only: ${events.join(', ')}`);
    assert.ok(flag < events.indexOf('wasm module'), `set after sql.js compiled: ${events.join(', ')}`);
  });

  it('keeps TurboFan for a model, an HTTP bridge and the team server; compat never tiers up', () => {
    const model = { kind: 'ollama', model: 'nomic-embed-text', baseUrl: 'http://127.0.0.1:11434' } as const;
    assert.equal(bridgeCompilesBaselineOnly({}, 'full', null), true);
    assert.equal(bridgeCompilesBaselineOnly({}, 'core', undefined), true);
    assert.equal(bridgeCompilesBaselineOnly({}, 'full', model), false);
    assert.equal(bridgeCompilesBaselineOnly({ http: true }, 'full', null), false);
    assert.equal(bridgeCompilesBaselineOnly({ team: true }, 'full', null), false);
    assert.equal(bridgeCompilesBaselineOnly({ http: true }, 'compat', model), true);
  });
});
