import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { writeTokenFile } from '../../engine/mcp/httpToken';
import { tempDir } from '../support/temp';

/** Reads the file in a tight loop until told to stop; counts reads that found it but not whole. */
const READER = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
let stop = false;
let partial = 0;
let whole = 0;
parentPort.on('message', () => { stop = true; });
function spin() {
  for (let i = 0; i < 200; i++) {
    try {
      JSON.parse(readFileSync(workerData, 'utf8'));
      whole++;
    } catch (error) {
      if (error.code !== 'ENOENT') partial++;
    }
  }
  if (stop) parentPort.postMessage({ partial, whole });
  else setImmediate(spin);
}
spin();
`;

describe('the HTTP bridge token file', () => {
  it('is never seen half written by a client reading it while a server rewrites it', async () => {
    const file = path.join(tempDir(), '.engram', 'mcp-http.json');
    writeTokenFile(file, { url: 'http://127.0.0.1:1/mcp', token: 'a'.repeat(43), pid: 1 });
    const reader = new Worker(READER, { eval: true, workerData: file });
    const result = new Promise<{ partial: number; whole: number }>((resolve) =>
      reader.once('message', resolve),
    );
    for (let i = 0; i < 2000; i++)
      writeTokenFile(file, { url: `http://127.0.0.1:${1000 + i}/mcp`, token: 'b'.repeat(43), pid: i });
    reader.postMessage('stop');
    const { partial, whole } = await result;
    await reader.terminate();
    assert.ok(whole > 0, 'the reader read the file');
    assert.equal(partial, 0, `${partial} reads found the file half written`);
  });
});
