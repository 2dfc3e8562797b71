/**
 * Live activity across processes: the engine host tells every client that asked about each recall
 * and write it serves, whoever made it, so a Graph panel in a VS Code window that is only a client
 * (an MCP bridge or the CLI hosts the database) still lights up. Real processes, a real database,
 * the real socket.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { silentLogger } from '../../engine/host';
import { endpointFor } from '../../engine/process/endpoint';
import { connectToHost } from '../../engine/process/hostConnection';
import { DISPATCH_METHOD, HELLO_METHOD, PROTOCOL_VERSION } from '../../engine/process/hostProtocol';
import { NOTIFY_BACKLOG_BYTES, RpcServer } from '../../engine/process/rpc';
import { callTool, startBridge } from '../mcp/bridgeProcess';
import type { ActivityProcessArgs } from './fixtures/activityProcess';
import { waitUntil } from '../support/waitUntil';
import { sleep, spawnFixture, tempDir } from './helpers';
import type { ChildEvent, Fixture } from './helpers';

interface SeenActivity {
  type: 'recall' | 'write';
  method: string;
  client: string;
  own: boolean;
  query?: string;
  memoryIds?: string[];
  entityIds?: number[];
}

void describe('live activity across processes', () => {
  let tmp: ReturnType<typeof tempDir>;
  let dbPath: string;
  const children: Fixture[] = [];
  let nextId = 1;

  beforeEach(() => {
    tmp = tempDir();
    dbPath = path.join(tmp.dir, 'ws', '.engram', 'memory.db');
  });
  afterEach(async () => {
    for (const fixture of children.splice(0)) {
      fixture.child.kill('SIGKILL');
      await fixture.exited;
    }
    rmSync(endpointFor(dbPath), { force: true });
    tmp.remove();
  });

  const start = async (clientName: string, extra: Partial<ActivityProcessArgs> = {}): Promise<Fixture> => {
    const args: ActivityProcessArgs = { dbPath, clientName, ...extra };
    const fixture = spawnFixture('activityProcess', args);
    children.push(fixture);
    await fixture.waitFor((e) => e.event === 'ready', 30_000);
    return fixture;
  };
  const role = (fixture: Fixture): unknown => fixture.events.find((e) => e.event === 'ready')?.role;
  const call = async (fixture: Fixture, method: string, params: unknown): Promise<ChildEvent> => {
    const id = nextId++;
    fixture.send({ cmd: 'call', id, method, params });
    const answer = await fixture.waitFor((e) => e.event === 'result' && e.id === id, 30_000);
    assert.equal(answer.error, undefined, `${method} failed in pid ${fixture.pid}`);
    return answer;
  };
  const activities = (fixture: Fixture): SeenActivity[] =>
    fixture.events.filter((e) => e.event === 'activity').map((e) => e.activity as SeenActivity);

  void test('a client sees a write by the host and a recall by another client (query, memories, entities), each process once', async () => {
    const host = await start('cli');
    const watcher = await start('vscode');
    const agent = await start('mcp:agent');
    // A process from before live activity: it never asks, so it must never get a notification.
    const older = await start('old-client', { noActivity: true });
    assert.deepEqual([host, watcher, agent, older].map(role), ['host', 'client', 'client', 'client']);

    const written = (await call(host, 'remember', {
      content: 'Melanie maintains the Kubernetes cluster for the platform team.',
    })) as ChildEvent & { result: { memory: { id: string } } };
    const memoryId = written.result.memory.id;
    const wrote = await watcher.waitFor((e) => e.event === 'activity');
    assert.deepEqual(wrote.activity, { type: 'write', method: 'remember', client: 'cli', own: false });

    await call(agent, 'recall', { query: 'who maintains kubernetes' });
    const isRecall = (e: ChildEvent): boolean =>
      e.event === 'activity' && (e.activity as SeenActivity).type === 'recall';
    const seenByWatcher = (await watcher.waitFor(isRecall)).activity as SeenActivity;
    assert.equal(seenByWatcher.query, 'who maintains kubernetes');
    assert.equal(seenByWatcher.client, 'mcp:agent');
    assert.equal(seenByWatcher.own, false);
    assert.deepEqual(seenByWatcher.memoryIds, [memoryId]);
    assert.ok(
      (seenByWatcher.entityIds ?? []).length > 0,
      'the recall touched entities (Melanie, Kubernetes)',
    );
    const seenByHost = (await host.waitFor(isRecall)).activity as SeenActivity;
    assert.deepEqual({ ...seenByHost, own: false }, seenByWatcher);
    assert.equal(((await agent.waitFor(isRecall)).activity as SeenActivity).own, true);

    // The older client keeps working among notifications it never asked for.
    await call(older, 'recall', { query: 'platform team' });
    // A last write, heard by everyone, proves everything before it has arrived; then count.
    await call(watcher, 'remember', { content: 'The staging cluster is rebuilt every Sunday night.' });
    for (const fixture of [host, watcher, agent]) {
      await fixture.waitFor(
        (e) => e.event === 'activity' && (e.activity as SeenActivity).client === 'vscode',
      );
      const seen = activities(fixture);
      const label = `pid ${fixture.pid} (${String(role(fixture))})`;
      assert.equal(seen.filter((a) => a.query === 'who maintains kubernetes').length, 1, `${label}: once`);
      assert.equal(
        seen.filter((a) => a.query === 'platform team').length,
        1,
        `${label}: the older client's recall`,
      );
      assert.deepEqual(
        seen.map((a) => `${a.type}:${a.client}:${a.own}`),
        [
          `write:cli:${fixture === host}`,
          `recall:mcp:agent:${fixture === agent}`,
          'recall:old-client:false',
          `write:vscode:${fixture === watcher}`,
        ],
        label,
      );
    }
    assert.equal(activities(older).length, 0);
    assert.equal(older.child.exitCode, null, 'the older client is still running');
  });

  void test('with the MCP bridge (dist/mcp.js) as the host, a client sees the recalls and writes of its agent', async () => {
    const workspace = path.dirname(path.dirname(dbPath));
    mkdirSync(workspace, { recursive: true });
    const bridge = await startBridge(workspace, { name: 'agent-x' });
    try {
      await callTool(bridge.client, 'memory_remember', {
        content: 'Priya moved the billing service to Postgres 16 last sprint.',
      });
      const watcher = await start('vscode');
      assert.equal(role(watcher), 'client', 'the bridge hosts the database');
      await callTool(bridge.client, 'memory_recall', { query: 'which postgres does billing use' });
      const recall = (
        await watcher.waitFor((e) => e.event === 'activity' && (e.activity as SeenActivity).type === 'recall')
      ).activity as SeenActivity;
      assert.equal(recall.query, 'which postgres does billing use');
      assert.equal(recall.own, false);
      assert.equal(recall.memoryIds?.length, 1);
      await callTool(bridge.client, 'memory_remember', { content: 'Billing keeps 30 days of invoices hot.' });
      const write = await watcher.waitFor(
        (e) => e.event === 'activity' && (e.activity as SeenActivity).type === 'write',
      );
      assert.equal((write.activity as SeenActivity).own, false);
    } finally {
      await bridge.close();
    }
  });

  void test('when the host goes away, the client that takes over keeps hearing the remaining clients', async () => {
    const host = await start('cli');
    const first = await start('vscode');
    const second = await start('mcp:agent');
    host.send({ cmd: 'close' });
    await host.waitFor((e) => e.event === 'closed');
    await call(first, 'remember', { content: 'Failover keeps the graph live: Ravi owns the release train.' });
    const newHost = await Promise.race([first, second].map((f) => f.waitFor((e) => e.event === 'role')));
    assert.equal(newHost.role, 'host');
    await call(second, 'recall', { query: 'who owns the release train' });
    for (const fixture of [first, second]) {
      await fixture.waitFor(
        (e) => e.event === 'activity' && (e.activity as SeenActivity).query === 'who owns the release train',
      );
    }
    const recalls = [first, second].map((f) => activities(f).filter((a) => a.type === 'recall'));
    assert.deepEqual(
      recalls.map((r) => r.map((a) => a.own)),
      [[false], [true]],
    );
  });
});

void describe('activity notifications to a client that does not read', () => {
  void test('are dropped once its backlog passes the bound; what was sent arrives whole', async () => {
    const tmp = tempDir();
    const endpoint = path.join(tmp.dir, 'notify.sock');
    const connected: number[] = [];
    const server = new RpcServer({
      handler: (_method, _params, context) => {
        connected.push(context.connectionId);
        return Promise.resolve('ok');
      },
      logger: silentLogger,
    });
    await server.listen(endpoint);
    const socket = net.createConnection({ path: endpoint });
    const received: string[] = [];
    let buffered = '';
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      received.push(...lines);
    });
    try {
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'hello' })}\n`);
      await waitUntil(() => received.length > 0, 5_000, 'the answer to hello');
      const connectionId = connected[0]!;
      // Stop reading: the kernel buffers fill, then the server's own buffer grows to the bound.
      socket.pause();
      const query = 'x'.repeat(4_000);
      let sent = 0;
      let refused = 0;
      for (let i = 0; i < 5_000; i++) {
        if (server.notify(connectionId, 'engram/activity', { requestId: `r${i}`, query })) sent++;
        else refused++;
        if (i % 100 === 0) await sleep(0);
      }
      assert.ok(refused > 0, 'some notifications were dropped');
      assert.ok(sent < 5_000 / 2, `sent ${sent} of 5,000 to a client that read nothing`);
      // The server never queued much beyond the bound (plus one message and the kernel's buffers).
      assert.ok(sent * 4_100 < NOTIFY_BACKLOG_BYTES + 8 * 1024 * 1024, `sent ${sent}`);
      socket.resume();
      await waitUntil(() => received.length === 1 + sent, 10_000, `all ${sent} sent notifications`);
      const ids = received
        .slice(1)
        .map((line) => (JSON.parse(line) as { params: { requestId: string } }).params.requestId);
      assert.equal(new Set(ids).size, sent, 'each arrived once and whole');
      // Once it reads again, it gets notifications again.
      assert.equal(server.notify(connectionId, 'engram/activity', { requestId: 'after' }), true);
      await waitUntil(() => received.length === 2 + sent, 5_000, 'the notification after resuming');
    } finally {
      socket.destroy();
      await server.close(100);
      tmp.remove();
    }
  });
});

void describe('a client and what its host sends it', () => {
  void test('malformed activity and unknown notifications are ignored; the connection and its calls carry on', async () => {
    const tmp = tempDir();
    const endpoint = path.join(tmp.dir, 'host.sock');
    let connectionId = -1;
    const server = new RpcServer({
      handler: (method, _params, context) => {
        if (method === HELLO_METHOD) {
          connectionId = context.connectionId;
          return Promise.resolve({ protocol: PROTOCOL_VERSION, pid: process.pid });
        }
        if (method === DISPATCH_METHOD) {
          // Everything a confused host could send, then a good notice, then the answer.
          server.notify(connectionId, 'engram/activity', { activity: { type: 'write' } });
          server.notify(connectionId, 'engram/activity', 'not an object');
          server.notify(connectionId, 'engram/somethingNew', { requestId: 'r0', activity: {} });
          server.notify(connectionId, 'engram/activity', { requestId: 'r1', activity: { type: 'write' } });
          return Promise.resolve('answered');
        }
        return Promise.reject(new Error(`unexpected ${method}`));
      },
      logger: silentLogger,
    });
    await server.listen(endpoint);
    const heard: Array<[unknown, string]> = [];
    // mkdtemp made the socket's directory private (0700), as endpointFor would.
    const connection = await connectToHost(endpoint, {
      clientName: 'test',
      logger: silentLogger,
      timeoutMs: 5_000,
      onActivity: (activity, requestId) => heard.push([activity, requestId]),
    });
    try {
      assert.equal(await connection.dispatch('stats', {}, 'r1'), 'answered');
      assert.deepEqual(heard, [[{ type: 'write' }, 'r1']]);
      assert.equal(await connection.dispatch('stats', {}, 'r2'), 'answered', 'still connected');
    } finally {
      connection.close();
      await server.close(100);
      tmp.remove();
    }
  });
});
