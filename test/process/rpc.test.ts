import assert from 'node:assert/strict';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { EngramError } from '../../engine/errors';
import type { EngramErrorCode } from '../../engine/errors';
import { silentLogger } from '../../engine/host';
import { LineReader } from '../../engine/process/lineReader';
import { RpcClient, RpcServer } from '../../engine/process/rpc';
import type { RpcHandler } from '../../engine/process/rpc';
import { ConnectionLostError, RpcRemoteError } from '../../engine/process/rpcMessages';
import { sleep, tempDir } from './helpers';

interface Gate {
  promise: Promise<void>;
  open(): void;
}

function gate(): Gate {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** A raw socket that collects the server's answer lines, for testing framing byte by byte. */
async function rawConnection(endpoint: string): Promise<{
  socket: net.Socket;
  answers: Record<string, unknown>[];
  waitForAnswers(count: number): Promise<Record<string, unknown>[]>;
  closed: Promise<void>;
}> {
  const socket = net.createConnection({ path: endpoint });
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const answers: Record<string, unknown>[] = [];
  const reader = new LineReader(1 << 30);
  socket.on('data', (chunk: Buffer) => {
    for (const line of reader.push(chunk)) answers.push(JSON.parse(line) as Record<string, unknown>);
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const waitForAnswers = async (count: number): Promise<Record<string, unknown>[]> => {
    const deadline = Date.now() + 5_000;
    while (answers.length < count) {
      if (Date.now() > deadline) throw new Error(`only ${answers.length} of ${count} answers arrived`);
      await sleep(5);
    }
    return answers;
  };
  return { socket, answers, waitForAnswers, closed };
}

void describe('rpc', () => {
  let tmp: ReturnType<typeof tempDir>;
  let endpoint: string;
  let server: RpcServer;
  let gates: Map<string, Gate>;
  const clients: RpcClient[] = [];

  const handler: RpcHandler = async (method, params) => {
    const p = params as Record<string, unknown>;
    switch (method) {
      case 'echo':
        return params;
      case 'nothing':
        return undefined;
      case 'fail':
        throw new EngramError(
          p.code as EngramErrorCode,
          p.message as string,
          p.details as Record<string, unknown>,
        );
      case 'crash':
        throw new TypeError('boom');
      case 'bigint':
        return { n: 1n };
      case 'big':
        return 'y'.repeat(p.bytes as number);
      case 'wait':
        await gates.get(p.gate as string)!.promise;
        return { waited: p.gate };
      default:
        throw new RpcRemoteError(-32601, `unknown method ${method}`);
    }
  };

  async function connect(maxLineBytes?: number): Promise<RpcClient> {
    const client = await RpcClient.connect(endpoint, { logger: silentLogger, maxLineBytes });
    clients.push(client);
    return client;
  }

  beforeEach(async () => {
    tmp = tempDir();
    endpoint = path.join(tmp.dir, 'rpc.sock');
    gates = new Map([['a', gate()]]);
    server = new RpcServer({ handler, logger: silentLogger, maxLineBytes: 32 * 1024 * 1024 });
    await server.listen(endpoint);
  });
  afterEach(async () => {
    for (const g of gates.values()) g.open();
    for (const client of clients.splice(0)) client.close();
    await server.close();
    tmp.remove();
  });

  void test('a request that arrives one byte at a time, with a multi-byte character split, is answered once', async () => {
    const raw = await rawConnection(endpoint);
    const bytes = Buffer.from(
      `${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'echo', params: 'ünïcødé ✓' })}\n`,
    );
    for (const byte of bytes) {
      raw.socket.write(Buffer.from([byte]));
      await sleep(0);
    }
    const [answer] = await raw.waitForAnswers(1);
    assert.deepEqual(answer, { jsonrpc: '2.0', id: 7, result: 'ünïcødé ✓' });
    await sleep(50);
    assert.equal(raw.answers.length, 1);
    raw.socket.destroy();
  });

  void test('a hundred requests in one chunk get a hundred answers, each to its own id', async () => {
    const raw = await rawConnection(endpoint);
    const chunk = Array.from({ length: 100 }, (_, i) =>
      JSON.stringify({ jsonrpc: '2.0', id: `r${i}`, method: 'echo', params: { i } }),
    ).join('\n');
    raw.socket.write(`${chunk}\n`);
    const answers = await raw.waitForAnswers(100);
    assert.equal(answers.length, 100);
    for (const answer of answers) {
      assert.deepEqual(answer.result, { i: Number(String(answer.id).slice(1)) });
    }
    raw.socket.destroy();
  });

  void test('garbage gets a parse error, a non-request an invalid-request error, and the connection lives on', async () => {
    const raw = await rawConnection(endpoint);
    raw.socket.write('this is not json\n');
    raw.socket.write('{"jsonrpc":"2.0","id":3,"params":1}\n');
    raw.socket.write('[{"jsonrpc":"2.0","id":4,"method":"echo"}]\n');
    raw.socket.write('\r\n\n{"jsonrpc":"2.0","id":5,"method":"echo","params":"still here"}\r\n');
    const [parse, invalid, batch, echo] = await raw.waitForAnswers(4);
    assert.deepEqual(parse?.id, null);
    assert.equal((parse?.error as { code: number }).code, -32700);
    assert.equal(invalid?.id, 3);
    assert.equal((invalid?.error as { code: number }).code, -32600);
    assert.equal((batch?.error as { code: number }).code, -32600);
    assert.deepEqual(echo, { jsonrpc: '2.0', id: 5, result: 'still here' });
    raw.socket.destroy();
  });

  void test('an EngramError crosses the wire with its code, message and details', async () => {
    const client = await connect();
    const failure = client.call('fail', {
      code: 'NOT_FOUND',
      message: 'memory m1 not found',
      details: { id: 'm1' },
    });
    await assert.rejects(failure, (error) => {
      assert.ok(error instanceof EngramError);
      assert.ok(EngramError.is(error, 'NOT_FOUND'));
      assert.equal(error.message, 'memory m1 not found');
      assert.deepEqual(error.details, { id: 'm1' });
      return true;
    });
    await assert.rejects(client.call('crash', {}), (error) => {
      assert.ok(error instanceof RpcRemoteError && !EngramError.is(error));
      assert.equal(error.code, -32603);
      assert.equal(error.message, 'boom');
      return true;
    });
    await assert.rejects(client.call('unknown', {}), (e) => e instanceof RpcRemoteError && e.code === -32601);
    await assert.rejects(client.call('bigint', {}), /not serialisable/);
    assert.equal(await client.call('nothing', {}), null);
  });

  void test('a message of several megabytes round-trips', async () => {
    const client = await connect();
    const payload = 'x'.repeat(6 * 1024 * 1024);
    assert.equal(await client.call('echo', payload), payload);
    assert.equal(((await client.call('big', { bytes: 5_000_000 })) as string).length, 5_000_000);
  });

  void test('a line beyond the cap drops the connection instead of growing without bound', async () => {
    await server.close();
    server = new RpcServer({ handler, logger: silentLogger, maxLineBytes: 1024 });
    await server.listen(endpoint);
    const raw = await rawConnection(endpoint);
    raw.socket.write('{"jsonrpc":"2.0","id":1,"method":"echo","params":"');
    raw.socket.write('z'.repeat(2048));
    await raw.closed;
    assert.equal(raw.answers.length, 0);

    // The client refuses to send what the host would drop (else failover would re-send it forever),
    const client = await connect(1024);
    await assert.rejects(client.call('echo', 'z'.repeat(2048)), (e) => EngramError.is(e, 'TOO_LARGE'));
    // and drops a connection whose answer exceeds its own cap.
    await assert.rejects(client.call('big', { bytes: 4096 }), (e) => ConnectionLostError.is(e));
  });

  void test('a per-call timeout rejects with UNAVAILABLE and leaves the connection usable', async () => {
    const client = await connect();
    const started = Date.now();
    await assert.rejects(client.call('wait', { gate: 'a' }, { timeoutMs: 100 }), (e) =>
      EngramError.is(e, 'UNAVAILABLE'),
    );
    assert.ok(Date.now() - started < 1_000);
    assert.equal(await client.call('echo', 'ok'), 'ok');
  });

  void test('when the connection dies every pending call fails with ConnectionLostError', async () => {
    // A "host" that reads three requests and then dies without answering.
    const deadEndpoint = path.join(tmp.dir, 'dying.sock');
    const dying = net.createServer((socket) => {
      let seen = 0;
      socket.on('data', (chunk: Buffer) => {
        seen += chunk.toString().split('\n').length - 1;
        if (seen >= 3) socket.destroy();
      });
    });
    await new Promise<void>((resolve) => dying.listen(deadEndpoint, resolve));
    const client = await RpcClient.connect(deadEndpoint, { logger: silentLogger });
    let closes = 0;
    client.onClose(() => closes++);
    const calls = [1, 2, 3].map((i) => client.call('echo', i));
    const results = await Promise.allSettled(calls);
    for (const result of results) {
      assert.equal(result.status, 'rejected');
      assert.ok(ConnectionLostError.is(result.reason));
    }
    assert.equal(closes, 1);
    await assert.rejects(client.call('echo', 4), (e) => ConnectionLostError.is(e));
    await new Promise((resolve) => dying.close(resolve));
  });

  void test('closing the server answers in-flight calls, leaves later ones unanswered, refuses new connections', async () => {
    const client = await connect();
    const inFlight = client.call('wait', { gate: 'a' });
    await sleep(50);
    const closing = server.close();
    const late = client.call('echo', 'too late');
    await sleep(50);
    gates.get('a')!.open();
    assert.deepEqual(await inFlight, { waited: 'a' });
    await assert.rejects(late, (e) => ConnectionLostError.is(e));
    await closing;
    await assert.rejects(RpcClient.connect(endpoint, { logger: silentLogger }), /ENOENT|ECONNREFUSED/);
  });
});
