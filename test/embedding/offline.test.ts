import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';

const CHILD = path.join(__dirname, 'fixtures', 'offlineEmbed.ts');
const BLOCKER = path.join(__dirname, 'fixtures', 'blockNetwork.ts');

/** An empty network namespace (no interfaces but a downed loopback) when this user may create one. */
const canUnshare = spawnSync('unshare', ['-n', 'true']).status === 0;

interface ChildReport {
  networkError: string | null;
  results: Array<{ source: string; dimension: number; similar: number; unrelated: number }>;
}

describe('default embedder offline', () => {
  it(`loads from the installed package and from dist with no network (${canUnshare ? 'unshare -n and a connect/DNS blocker' : 'a connect/DNS blocker'})`, () => {
    const node = [process.execPath, '--require', 'tsx/cjs', '--require', BLOCKER, CHILD];
    const [command, ...args] = canUnshare ? ['unshare', '-n', ...node] : node;
    const child = spawnSync(command!, args, {
      cwd: path.join(__dirname, '..', '..'),
      encoding: 'utf8',
      timeout: 120_000,
      // Proxies that lead nowhere, in case anything honours them.
      env: {
        ...process.env,
        HTTP_PROXY: 'http://127.0.0.1:9',
        HTTPS_PROXY: 'http://127.0.0.1:9',
        NO_PROXY: '',
      },
    });
    assert.equal(child.status, 0, `child failed:\n${child.stderr}`);
    // Exactly one line: the engine, TF.js and the worker printed nothing to stdout.
    const lines = child.stdout.split('\n').filter((line) => line !== '');
    assert.equal(lines.length, 1, `unexpected stdout:\n${child.stdout}`);
    const report = JSON.parse(lines[0]!) as ChildReport;
    assert.notEqual(report.networkError, null, 'the child reached the npm registry: the test proves nothing');
    assert.deepEqual(
      report.results.map((r) => r.source),
      ['package', 'dist'],
    );
    for (const result of report.results) {
      assert.equal(result.dimension, 512);
      assert.ok(result.similar > result.unrelated + 0.4, JSON.stringify(result));
    }
  });
});
