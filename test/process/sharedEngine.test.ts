import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { EngramError } from '../../engine/errors';
import { silentLogger } from '../../engine/host';
import { endpointFor } from '../../engine/process/endpoint';
import { acquireLock } from '../../engine/process/lockFile';
import { processStartTime } from '../../engine/process/processInfo';
import { openShared } from '../../engine/process/sharedEngine';
import type { HostDispatcher, OpenSharedOptions, SharedEngine } from '../../engine/process/sharedEngine';
import { openFileDispatcher, readLines } from './fixtures/fileDispatcher';
import type { DispatchLogEntry } from './fixtures/fileDispatcher';
import type { SharedProcessArgs } from './fixtures/sharedProcess';
import { waitUntil } from '../support/waitUntil';
import { sleep, spawnFixture, tempDir } from './helpers';
import type { ChildEvent, Fixture } from './helpers';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Recorded {
  dispatcher: HostDispatcher;
  calls: { method: string; params: unknown; requestId: string; client: string }[];
  closes: number;
}

function recordingDispatcher(): Recorded {
  const recorded: Recorded = {
    calls: [],
    closes: 0,
    dispatcher: {
      async dispatch(method, params, meta) {
        recorded.calls.push({ method, params, ...meta });
        if (method === 'delay') await sleep(params as number);
        return { method, pid: process.pid };
      },
      close() {
        recorded.closes++;
        return Promise.resolve();
      },
    },
  };
  return recorded;
}

void describe('shared engine', () => {
  let tmp: ReturnType<typeof tempDir>;
  let dbPath: string;
  let dataFile: string;
  let logFile: string;
  const engines: SharedEngine[] = [];
  const children: Fixture[] = [];

  const open = async (overrides: Partial<OpenSharedOptions> = {}): Promise<SharedEngine> => {
    const engine = await openShared({
      dbPath,
      clientName: 'test',
      logger: silentLogger,
      openHost: () => openFileDispatcher({ dataFile, logFile }),
      ...overrides,
    });
    engines.push(engine);
    return engine;
  };

  const child = async (
    args: Partial<SharedProcessArgs> = {},
  ): Promise<{ fixture: Fixture; ready: ChildEvent }> => {
    const fixture = spawnFixture('sharedProcess', {
      dbPath,
      dataFile,
      logFile,
      clientName: 'child',
      ...args,
    });
    children.push(fixture);
    const ready = await fixture.waitFor((e) => e.event === 'ready');
    return { fixture, ready };
  };

  beforeEach(() => {
    tmp = tempDir();
    dbPath = path.join(tmp.dir, 'ws', '.engram', 'memory.db');
    dataFile = path.join(tmp.dir, 'data.txt');
    logFile = path.join(tmp.dir, 'dispatch.jsonl');
  });
  afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.close();
    for (const fixture of children.splice(0)) {
      fixture.child.kill('SIGKILL');
      await fixture.exited;
    }
    // A killed host leaves its socket file behind; the next host would replace it, but tests end here.
    rmSync(endpointFor(dbPath), { force: true });
    tmp.remove();
  });

  const log = (): DispatchLogEntry[] => readLines(logFile).map((l) => JSON.parse(l) as DispatchLogEntry);

  void test('a lone process becomes the host; its calls go through dispatch with a fresh UUID, its name, marked local', async () => {
    const recorded = recordingDispatcher();
    const engine = await open({ clientName: 'cli', openHost: () => Promise.resolve(recorded.dispatcher) });
    assert.equal(engine.role, 'host');
    assert.deepEqual(await engine.call('remember', { text: 'a' }), { method: 'remember', pid: process.pid });
    await engine.call('remember', { text: 'b' });
    const [first, second] = recorded.calls;
    assert.match(first!.requestId, UUID);
    assert.notEqual(first!.requestId, second!.requestId);
    assert.deepEqual(
      { ...first, requestId: '' },
      { method: 'remember', params: { text: 'a' }, requestId: '', client: 'cli', local: true },
    );
  });

  void test('host close() finishes in-flight calls, closes the dispatcher once, then releases lock and socket', async () => {
    const recorded = recordingDispatcher();
    const engine = await open({ openHost: () => Promise.resolve(recorded.dispatcher) });
    const endpoint = endpointFor(dbPath);
    assert.ok(existsSync(`${dbPath}.lock`) && existsSync(endpoint));
    const inFlight = engine.call('delay', 200);
    await engine.close();
    assert.deepEqual(await inFlight, { method: 'delay', pid: process.pid });
    assert.equal(recorded.closes, 1);
    assert.equal(existsSync(`${dbPath}.lock`), false);
    assert.equal(existsSync(endpoint), false);
    await assert.rejects(engine.call('x', null), (e) => EngramError.is(e, 'CLOSED'));
    await engine.close();
    assert.equal(recorded.closes, 1);
  });

  void test('if openHost throws, the lock is released and the error reaches the caller', async () => {
    const failure = new EngramError('CORRUPT', 'journal checksum mismatch');
    await assert.rejects(open({ openHost: () => Promise.reject(failure) }), (e) => e === failure);
    assert.equal(existsSync(`${dbPath}.lock`), false);
    assert.equal((await open()).role, 'host');
  });

  void test('a second process is a client: its calls run in the host, EngramErrors keep code and message', async () => {
    const { fixture, ready } = await child();
    assert.equal(ready.role, 'host');
    const engine = await open();
    assert.equal(engine.role, 'client');
    assert.deepEqual(await engine.call('echo', { n: 1 }), { params: { n: 1 }, pid: fixture.pid });
    await assert.rejects(engine.call('fail', { code: 'NOT_FOUND', message: 'no memory m9' }), (e) => {
      return e instanceof EngramError && e.code === 'NOT_FOUND' && e.message === 'no memory m9';
    });
    const [entry] = log();
    assert.equal(entry?.client, 'test');
    assert.match(entry.requestId, UUID);
  });

  void test('a host listens while it opens its database: a client attaches at once and its call waits for the open', async () => {
    const fixture = spawnFixture('sharedProcess', {
      dbPath,
      dataFile,
      clientName: 'slow-host',
      openDelayMs: 1_500,
    });
    children.push(fixture);
    await waitUntil(() => existsSync(endpointFor(dbPath)), 10_000, 'the child to listen');
    const started = Date.now();
    const engine = await open();
    const attachedAfter = Date.now() - started;
    assert.equal(engine.role, 'client');
    assert.equal(((await engine.call('echo', 1)) as { pid: number }).pid, fixture.pid);
    const answeredAfter = Date.now() - started;
    assert.ok(
      answeredAfter - attachedAfter > 300,
      `the call, not the attachment, waited for the open (attached after ${attachedAfter} ms, answered after ${answeredAfter} ms)`,
    );
  });

  void test('a host that fails to open drops its waiting clients unanswered: their calls run once at the next host', async () => {
    const fixture = spawnFixture('sharedProcess', {
      dbPath,
      dataFile,
      logFile,
      clientName: 'broken-host',
      openDelayMs: 1_000,
      openFails: true,
    });
    children.push(fixture);
    await waitUntil(() => existsSync(endpointFor(dbPath)), 10_000, 'the child to listen');
    const engine = await open();
    assert.equal(engine.role, 'client');
    const reply = (await engine.call('echo', 2)) as { pid: number };
    assert.equal(reply.pid, process.pid, 'answered by this process, the next host');
    assert.equal(engine.role, 'host');
    assert.equal(log().filter((entry) => entry.method === 'echo').length, 1);
    assert.equal((await fixture.exited).code, 1);
  });

  void test('with a live lock holder that never serves, openShared fails with UNAVAILABLE after the timeout', async () => {
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      await new Promise((resolve) => sleeper.once('spawn', resolve));
      const pid = sleeper.pid!;
      const owner = { pid, startedAt: processStartTime(pid), hostname: os.hostname(), createdAt: Date.now() };
      mkdirSync(path.dirname(dbPath), { recursive: true });
      writeFileSync(
        `${dbPath}.lock`,
        JSON.stringify({ ...owner, endpoint: endpointFor(dbPath), token: 't' }),
      );
      const started = Date.now();
      await assert.rejects(open({ connectTimeoutMs: 700 }), (e) => {
        assert.ok(EngramError.is(e, 'UNAVAILABLE'));
        assert.match(e.message, new RegExp(`pid ${pid}`));
        return true;
      });
      const elapsed = Date.now() - started;
      assert.ok(elapsed >= 650 && elapsed < 3_000, `gave up after ${elapsed} ms`);
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  void test('host SIGKILLed mid-call: the client becomes host and re-sends the call with the same request id', async () => {
    const { fixture } = await child({ hang: ['slow'] });
    const engine = await open();
    assert.equal(engine.role, 'client');
    const roles: string[] = [];
    engine.onRoleChange((role) => roles.push(role));

    const pending = engine.call('slow', {});
    const first = await waitUntil(
      () => log().find((e) => e.method === 'slow'),
      5_000,
      'the host to receive the call',
    );
    assert.equal(first.pid, fixture.pid);
    fixture.child.kill('SIGKILL');

    assert.deepEqual(await pending, { pid: process.pid });
    assert.equal(engine.role, 'host');
    assert.deepEqual(roles, ['host']);
    const slow = log().filter((e) => e.method === 'slow');
    assert.deepEqual(
      slow.map((e) => [e.pid, e.requestId]),
      [
        [fixture.pid, first.requestId],
        [process.pid, first.requestId],
      ],
    );
  });

  void test('connections that drop (mid-call, right after the greeting) are replaced and the call re-sent with its id', async () => {
    // A live host (this process holds the lock) whose first connections misbehave.
    const socketDir = path.join(tmp.dir, 'sock');
    mkdirSync(socketDir, { mode: 0o700 });
    const fakeEndpoint = path.join(socketDir, 'fake.sock');
    mkdirSync(path.dirname(dbPath), { recursive: true });
    const lock = await acquireLock(dbPath, fakeEndpoint);
    assert.ok(lock.acquired);
    const received: { connection: number; requestId: string }[] = [];
    let connections = 0;
    const fake = net.createServer((socket) => {
      const connection = ++connections;
      createInterface({ input: socket }).on('line', (line) => {
        if (socket.writableEnded) return; // Connection 2 hung up right after the greeting.
        const request = JSON.parse(line) as { id: number; method: string; params: { requestId: string } };
        const answer = (result: unknown): string =>
          `${JSON.stringify({ jsonrpc: '2.0', id: request.id, result })}\n`;
        if (request.method === 'engram/hello') {
          if (connection === 2) socket.end(answer({ protocol: 1, pid: process.pid }));
          else socket.write(answer({ protocol: 1, pid: process.pid }));
          return;
        }
        received.push({ connection, requestId: request.params.requestId });
        if (connection === 1) socket.destroy();
        else socket.write(answer({ servedBy: connection }));
      });
    });
    await new Promise<void>((resolve) => fake.listen(fakeEndpoint, resolve));
    const engine = await open();
    try {
      assert.deepEqual(await engine.call('remember', {}), { servedBy: 3 });
      assert.equal(connections, 3);
      assert.deepEqual(
        received.map((r) => r.connection),
        [1, 3],
      );
      assert.equal(received[0]!.requestId, received[1]!.requestId);
      assert.equal(engine.role, 'client');
    } finally {
      await engine.close();
      lock.lock.release();
      await new Promise((resolve) => fake.close(resolve));
    }
  });

  void test('host close(): its in-flight call is answered, then clients fail over promptly', async () => {
    const { fixture } = await child();
    const engine = await open();
    const roles: string[] = [];
    engine.onRoleChange((role) => roles.push(role));
    const inFlight = engine.call('delay', { ms: 400 });
    await waitUntil(() => log().some((e) => e.method === 'delay'), 5_000, 'the host to start the call');
    fixture.send({ cmd: 'close' });
    assert.deepEqual(await inFlight, { pid: fixture.pid });
    await fixture.waitFor((e) => e.event === 'closed');
    const closedAt = Date.now();
    await waitUntil(() => engine.role === 'host', 5_000, 'the client to take over');
    // Promptly: on the order of the retry backoff, far below the 15 s connect timeout.
    assert.ok(Date.now() - closedAt < 2_000, `took over ${Date.now() - closedAt} ms after the host closed`);
    assert.deepEqual(roles, ['host']);
    assert.deepEqual(await engine.call('echo', 2), { params: 2, pid: process.pid });
    assert.equal(log().filter((e) => e.method === 'delay').length, 1, 'the answered call was not re-sent');
  });

  void test('four processes opening at once end with exactly one host, and all talk to it', async () => {
    const startAt = Date.now() + 1_500;
    const fixtures = [1, 2, 3, 4].map((i) =>
      spawnFixture('sharedProcess', { dbPath, dataFile, clientName: `p${i}`, startAt, openDelayMs: 300 }),
    );
    children.push(...fixtures);
    const ready = await Promise.all(fixtures.map((f) => f.waitFor((e) => e.event === 'ready')));
    const hosts = ready.filter((e) => e.role === 'host');
    assert.equal(hosts.length, 1, `roles: ${ready.map((e) => e.role).join(', ')}`);
    fixtures.forEach((f, i) => f.send({ cmd: 'call', id: i, method: 'echo', params: i }));
    const answers = await Promise.all(fixtures.map((f) => f.waitFor((e) => e.event === 'result')));
    for (const answer of answers) assert.equal((answer.result as { pid: number }).pid, hosts[0]!.pid);
  });
});
