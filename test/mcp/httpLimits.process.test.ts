import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { BRIDGE, bridgeEnv, tempWorkspace } from './bridgeProcess';

/**
 * Small limits, so the test waits seconds at most; the defaults are 30 min and 30 s. The idle time
 * must outlast the test's own steps between a session's requests on a loaded machine (0.3 s did
 * not at load 13: a session expired between its initialize and its first ping).
 */
const SESSION_IDLE_S = 1;
const REQUEST_TIMEOUT_S = 0.5;
/** How long a slow client may hold a socket before the test calls it a failure: far above the limit. */
const CEILING_MS = 20_000;

let child: ChildProcess;
let url: URL;
let token: string;

before(async () => {
  const workspace = tempWorkspace();
  const tokenFile = path.join(workspace, '.engram', 'mcp-http.json');
  child = spawn(
    process.execPath,
    [
      BRIDGE,
      '--http',
      '--workspace',
      workspace,
      '--session-idle',
      String(SESSION_IDLE_S),
      '--request-timeout',
      String(REQUEST_TIMEOUT_S),
    ],
    { env: bridgeEnv(), stdio: 'ignore' },
  );
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  while (!existsSync(tokenFile)) {
    assert.equal(exited, undefined, `the bridge exited with ${exited} before listening`);
    await delay(20);
  }
  const endpoint = JSON.parse(readFileSync(tokenFile, 'utf8')) as { url: string; token: string };
  url = new URL(endpoint.url);
  token = endpoint.token;
});
after(() => {
  child.kill('SIGTERM');
});

interface Answer {
  status: number;
  session: string | undefined;
}

/** One JSON-RPC request; resolves with the status once the headers are in (event streams stay unread). */
function post(message: Record<string, unknown>, session?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          host: url.host,
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
          ...(session ? { 'mcp-session-id': session } : {}),
        },
      },
      (res) => {
        const id = res.headers['mcp-session-id'];
        resolve({ status: res.statusCode ?? 0, session: typeof id === 'string' ? id : undefined });
        res.destroy();
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', ...message }));
  });
}

async function initialize(): Promise<string> {
  const answer = await post({
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  assert.equal(answer.status, 200);
  assert.ok(answer.session);
  await post({ method: 'notifications/initialized' }, answer.session);
  return answer.session;
}

const ping = (session: string) => post({ id: 2, method: 'ping' }, session);

/** Opens the session's event stream (GET) and keeps it open until the returned function is called. */
function openEventStream(session: string): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'GET',
        headers: {
          host: url.host,
          authorization: `Bearer ${token}`,
          accept: 'text/event-stream',
          'mcp-protocol-version': '2025-06-18',
          'mcp-session-id': session,
        },
      },
      (res) => {
        assert.equal(res.statusCode, 200);
        resolve(() => req.destroy());
      },
    );
    req.on('error', reject);
    req.end();
  });
}

test('a session without requests expires after the idle time and then answers 404; an open stream keeps one', async () => {
  const idle = await initialize();
  const streaming = await initialize();
  assert.equal((await ping(idle)).status, 200);
  const closeStream = await openEventStream(streaming);
  // Several idle times and sweeps; no duration is asserted, only what each session answers after.
  await delay(SESSION_IDLE_S * 1000 * 3);
  assert.equal((await ping(idle)).status, 404, 'the idle session was kept');
  assert.equal((await ping(streaming)).status, 200, 'a session with an open event stream was closed');
  closeStream();
  // A new session works as before.
  assert.equal((await ping(await initialize())).status, 200);
});

/** Sends `head` then `drip` one byte every 50 ms; resolves with what the server answered when it closed. */
function slowClient(head: string, drip: string): Promise<{ closedBy: 'server' | 'ceiling'; answer: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname);
    let answer = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const ceiling = setTimeout(() => finish('ceiling'), CEILING_MS);
    const finish = (closedBy: 'server' | 'ceiling') => {
      clearInterval(timer);
      clearTimeout(ceiling);
      socket.destroy();
      resolve({ closedBy, answer });
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => finish('server'));
    socket.on('error', () => undefined);
    socket.on('connect', () => {
      socket.write(head);
      timer = setInterval(() => socket.write(drip[sent++ % drip.length] ?? ' '), 50);
    });
  });
}

test('a client sending its headers a byte at a time is cut off by the headers timeout', async () => {
  const result = await slowClient(
    `POST /mcp HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${token}\r\n`,
    'X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  );
  assert.equal(result.closedBy, 'server');
  assert.match(result.answer, /^HTTP\/1\.1 408/);
});

test('a client sending its body a byte at a time is cut off by the request timeout', async () => {
  const result = await slowClient(
    [
      'POST /mcp HTTP/1.1',
      `Host: ${url.host}`,
      `Authorization: Bearer ${token}`,
      'Content-Type: application/json',
      'Accept: application/json, text/event-stream',
      'Content-Length: 100000',
      '',
      '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"',
    ].join('\r\n'),
    'a',
  );
  assert.equal(result.closedBy, 'server');
});

test('a body announced past 4 MiB is refused with 413 before it is read', async () => {
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          host: url.host,
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': String(5 * 1024 * 1024),
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.write('{');
  });
  assert.equal(status, 413);
});
