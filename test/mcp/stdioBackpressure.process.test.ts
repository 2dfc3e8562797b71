import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { LineDelimitedTransport } from '../../engine/mcp/stdioTransport';
import { BRIDGE, bridgeEnv, tempWorkspace } from './bridgeProcess';

const REQUESTS = 120;

describe('the stdio bridge when its client does not read for a while', () => {
  it('waits for one drain however many replies are queued, and delivers them all in order', async () => {
    const input = new PassThrough();
    const output = new PassThrough({ highWaterMark: 64 });
    const transport = new LineDelimitedTransport(input, output);
    await transport.start();
    const sent = Array.from({ length: 50 }, (_, id) =>
      transport.send({ jsonrpc: '2.0', id, result: { text: 'x'.repeat(100) } }),
    );
    assert.equal(output.listenerCount('drain'), 1);
    const chunks: Buffer[] = [];
    output.on('data', (chunk: Buffer) => chunks.push(chunk));
    await Promise.all(sent);
    const ids = Buffer.concat(chunks)
      .toString('utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: number }).id);
    assert.deepEqual(ids, [...Array(50).keys()]);
    assert.equal(output.listenerCount('drain'), 0);
    await transport.close();
  });

  it('dist/mcp.js answers every request and prints no MaxListenersExceededWarning', async () => {
    const child = spawn(process.execPath, [BRIDGE, '--workspace', tempWorkspace()], {
      env: bridgeEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'slow', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    // tools/list answers are tens of KB each: far more than a pipe holds while nobody reads stdout.
    for (let id = 1; id <= REQUESTS; id++) send({ jsonrpc: '2.0', id, method: 'tools/list' });
    // Not reading stdout for a while (not a timing assertion: the warning, if any, comes meanwhile).
    for (let waited = 0; waited < 8000 && !stderr.includes('MaxListeners'); waited += 100) await delay(100);
    const ids = new Set<number>();
    let buffered = '';
    child.stdout.setEncoding('utf8');
    for await (const chunk of child.stdout) {
      buffered += chunk as string;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) ids.add((JSON.parse(line) as { id: number }).id);
      if (ids.size === REQUESTS + 1) break;
    }
    child.kill('SIGTERM');
    assert.equal(ids.size, REQUESTS + 1);
    assert.doesNotMatch(stderr, /MaxListenersExceededWarning/);
  });
});
