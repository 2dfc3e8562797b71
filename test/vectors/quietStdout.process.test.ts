import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../support/temp';

const FIXTURE = path.join(__dirname, 'fixtures', 'quietIndex.ts');

describe('vector index and stdout (the MCP channel)', () => {
  it('writes nothing to stdout while hnswlib loads, builds, saves and reloads; its chatter goes to the logger', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', FIXTURE, tempDir()], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, '', 'nothing on stdout');
    const result = /^result (.*)$/m.exec(run.stderr);
    assert.ok(result, run.stderr);
    assert.deepEqual(JSON.parse(result[1]!), {
      stdoutWrites: 0,
      consoleRestored: true,
      mode: false,
      hits: 3,
    });
    // The library did print: routed to the logger, from this thread and from the worker.
    assert.match(run.stderr, /\[engram debug\] hnswlib: EmscriptenFileSystemManager: Mounting IDBFS/);
    assert.match(
      run.stderr,
      /\[engram debug\] vector worker: hnswlib: EmscriptenFileSystemManager: Mounting IDBFS/,
    );
    assert.match(run.stderr, /hnswlib: b\. jsFS synced successfully/);
  });
});
