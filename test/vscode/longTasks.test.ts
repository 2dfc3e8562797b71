import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { MainThreadProfile, bundleSources, urlOwner } from './inHost/mainThreadProfile';
import { REPO_ROOT } from './support/artifacts';
import { blockedWindows, longTaskTable, longTasks } from './support/longTasks';

/** Holds the thread without yielding, as a long task in an extension would. */
function holdTheThreadFor(ms: number): number {
  const until = performance.now() + ms;
  let spins = 0;
  while (performance.now() < until) spins++;
  return spins;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The scan test's main-thread attribution (scanSuite.ts), checked on this process's own thread. */
describe('long tasks from a CPU profile and a heartbeat', () => {
  it('finds a turn that held the thread, with the function that held it on top', async () => {
    const profile = await MainThreadProfile.start();
    await pause(30);
    holdTheThreadFor(80);
    await pause(30);
    const { profile: cpu, beats } = await profile.stop();
    const windows = blockedWindows(beats, 20);
    const thisFile = (url: string) => url.endsWith('longTasks.test.ts');
    const tasks = longTasks(
      cpu,
      windows,
      (url) => (thisFile(url) ? 'this test' : url.startsWith('node:') ? 'node' : undefined),
      () => undefined,
    );
    const held = tasks.find((t) => t.top.some((f) => f.frame.startsWith('holdTheThreadFor')));
    assert.ok(held, `no task ran holdTheThreadFor:\n${longTaskTable(tasks)}`);
    assert.ok(held.ms >= 75, `the task lasted the 80 ms the thread was held (got ${held.ms})`);
    // The thread's CPU time where the runtime reports it (Node 23.9+); never more than the wall time.
    if (held.cpuMs !== undefined) assert.ok(held.cpuMs > 0 && held.cpuMs <= held.ms + 1, `cpu ${held.cpuMs}`);
    assert.equal(held.owner, 'this test');
    assert.equal(held.calls[0]?.frame, 'holdTheThreadFor', JSON.stringify(held.calls));
    // The pauses are not tasks: the loop came round during them (every 1-3 ms on a busy machine).
    assert.ok(beats.length > 5, `the heartbeat beat during the pauses (${beats.length} beats)`);
  });

  it('names the owner of a script: Engram, an extension by its folder, VS Code, Node; wasm has none', () => {
    const owner = urlOwner('/work/engram');
    assert.equal(owner('file:///work/engram/dist/extensionEngine.js'), 'engram');
    assert.equal(owner('/work/engram/dist/extension.js'), 'engram');
    assert.equal(owner('file:///work/engram/.vscode-test/inHost/runner.js'), 'test harness');
    const vscode = 'file:///cache/code-server/lib/vscode';
    assert.equal(owner(`${vscode}/extensions/git/dist/main.js`), 'git');
    assert.equal(
      owner(`${vscode}/extensions/typescript-language-features/dist/extension.js`),
      'typescript-language-features',
    );
    assert.equal(owner(`${vscode}/out/vs/workbench/api/node/extensionHostProcess.js`), 'vscode');
    assert.equal(owner('node:internal/fs/utils'), 'node');
    assert.equal(owner('wasm://wasm/002a0116'), undefined);
  });

  it("maps a line of Engram's bundle to the module esbuild put there", () => {
    // npm run test:vscode builds dist/ before it runs this file.
    const bundle = path.join(REPO_ROOT, 'dist', 'extension.js');
    assert.ok(existsSync(bundle), `${bundle} is built`);
    const lines = readFileSync(bundle, 'utf8').split('\n');
    const marker = lines.indexOf('// extension/extension.ts');
    assert.ok(marker >= 0, 'esbuild marks each module with a comment');
    const source = bundleSources();
    assert.equal(source(`file://${bundle}`, marker + 3), 'extension/extension.ts');
    assert.equal(source('node:internal/fs/utils', 10), undefined);
  });
});
