import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LineDelimitedTransport } from '../../engine/mcp/stdioTransport';
import { BRIDGE, bridgeEnv, tempWorkspace } from './bridgeProcess';

interface Wire {
  input: PassThrough;
  transport: LineDelimitedTransport;
  received: JSONRPCMessage[];
  errors: string[];
  /** The lines the transport wrote, parsed. */
  replies(): unknown[];
}

async function wire(maxFrameBytes?: number): Promise<Wire> {
  const input = new PassThrough();
  const output = new PassThrough();
  const written: string[] = [];
  output.on('data', (chunk: Buffer) => written.push(chunk.toString('utf8')));
  const transport = new LineDelimitedTransport(input, output, maxFrameBytes);
  const received: JSONRPCMessage[] = [];
  const errors: string[] = [];
  transport.onmessage = (m) => received.push(m);
  transport.onerror = (e) => errors.push(e.message);
  await transport.start();
  return {
    input,
    transport,
    received,
    errors,
    replies: () =>
      written
        .join('')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as unknown),
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the bridge stdio transport', () => {
  it('passes valid messages on, also when a line arrives in pieces or ends in CRLF', async () => {
    const w = await wire();
    const line = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    w.input.write(line.slice(0, 10));
    w.input.write(
      `${line.slice(10)}\r\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`,
    );
    await settle();
    assert.deepEqual(w.received, [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ]);
    assert.deepEqual(w.replies(), []);
  });

  it('answers a request whose params are not an object with -32600 and its id', async () => {
    const w = await wire();
    w.input.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 'req-9', method: 'tools/call', params: 'oops' })}\n`,
    );
    w.input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'tools/call', params: [1, 2] })}\n`);
    await settle();
    assert.deepEqual(w.received, []);
    assert.deepEqual(w.replies(), [
      {
        jsonrpc: '2.0',
        id: 'req-9',
        error: { code: -32600, message: 'Invalid Request: "params" must be an object, got string' },
      },
      {
        jsonrpc: '2.0',
        id: 10,
        error: { code: -32600, message: 'Invalid Request: "params" must be an object, got an array' },
      },
    ]);
  });

  it('answers a line that is not JSON with -32700 and keeps reading', async () => {
    const w = await wire();
    w.input.write('this is not json\n');
    w.input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' })}\n`);
    await settle();
    const [reply] = w.replies() as Array<{ id: unknown; error: { code: number; message: string } }>;
    assert.equal(reply?.id, null);
    assert.equal(reply?.error.code, -32700);
    assert.match(reply.error.message, /^Parse error: /);
    assert.deepEqual(w.received, [{ jsonrpc: '2.0', id: 2, method: 'ping' }]);
  });

  it('does not answer an invalid notification (it has no id) but reports it', async () => {
    const w = await wire();
    w.input.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/x', params: 5 })}\n`);
    await settle();
    assert.deepEqual(w.replies(), []);
    assert.equal(w.errors.length, 1);
    assert.match(w.errors[0]!, /invalid JSON-RPC notification: "params" must be an object, got number/);
  });

  it('refuses an oversize line, whole or in pieces, and stays connected', async () => {
    const w = await wire(1000);
    w.input.write(`${'x'.repeat(1500)}\n`);
    w.input.write('y'.repeat(800));
    w.input.write('y'.repeat(800));
    w.input.write(`yyy\n${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' })}\n`);
    await settle();
    const replies = w.replies() as Array<{ id: unknown; error: { code: number; message: string } }>;
    assert.equal(replies.length, 2);
    for (const reply of replies) {
      assert.equal(reply.id, null);
      assert.equal(reply.error.message, 'Invalid Request: a message longer than 1000 bytes was refused');
    }
    assert.deepEqual(w.received, [{ jsonrpc: '2.0', id: 3, method: 'ping' }]);
  });

  it('stops reading and writing once closed', async () => {
    const w = await wire();
    let closed = 0;
    w.transport.onclose = () => closed++;
    await w.transport.close();
    await w.transport.close();
    w.input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'ping' })}\n`);
    w.input.write('not json\n');
    await settle();
    assert.equal(closed, 1);
    assert.deepEqual(w.received, []);
    assert.deepEqual(w.replies(), []);
  });
});

describe('the built bridge over stdio', () => {
  it('answers malformed frames from a raw client and then serves a valid request', async () => {
    const workspace = tempWorkspace();
    const child = spawn(process.execPath, [BRIDGE, '--workspace', workspace], {
      env: bridgeEnv(),
      cwd: workspace,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    try {
      const lines: Array<{ id?: unknown; result?: unknown; error?: { code: number; message: string } }> = [];
      let buffer = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('utf8');
        for (let i = buffer.indexOf('\n'); i !== -1; i = buffer.indexOf('\n')) {
          lines.push(JSON.parse(buffer.slice(0, i)) as (typeof lines)[number]);
          buffer = buffer.slice(i + 1);
        }
      });
      const send = (message: unknown) =>
        child.stdin.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: 'memory_recall' });
      send('{"jsonrpc": "2.0", "id": 3, "method": ');
      send({ jsonrpc: '2.0', id: 4, method: 'tools/list' });
      const deadline = Date.now() + 30_000;
      while (lines.length < 4 && Date.now() < deadline && child.exitCode === null)
        await new Promise((resolve) => setTimeout(resolve, 20));
      const byId = new Map(lines.map((l) => [l.id, l]));
      assert.ok(byId.get(1)?.result, 'initialize answered');
      assert.deepEqual(byId.get(2)?.error, {
        code: -32600,
        message: 'Invalid Request: "params" must be an object, got string',
      });
      assert.equal(byId.get(null)?.error?.code, -32700);
      const tools = (byId.get(4)?.result as { tools?: unknown[] } | undefined)?.tools;
      assert.ok(Array.isArray(tools) && tools.length > 0, 'tools/list answered after the bad frames');
    } finally {
      child.stdin.end();
      if (child.exitCode === null) {
        const exited = once(child, 'exit');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
        await exited;
      }
    }
  });
});
