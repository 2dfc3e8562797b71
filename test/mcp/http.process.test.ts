import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BRIDGE, bridgeEnv, tempWorkspace } from './bridgeProcess';

let child: ChildProcess;
let endpoint: { url: string; token: string };
let tokenFile: string;

before(async () => {
  const workspace = tempWorkspace();
  tokenFile = path.join(workspace, '.engram', 'mcp-http.json');
  child = spawn(process.execPath, [BRIDGE, '--http', '--workspace', workspace], {
    env: bridgeEnv(),
    stdio: 'ignore',
  });
  // The bridge writes the file once it listens; poll for it (no timing is asserted).
  while (!existsSync(tokenFile)) await delay(20);
  endpoint = JSON.parse(readFileSync(tokenFile, 'utf8')) as { url: string; token: string };
});
after(() => {
  child.kill('SIGTERM');
});

function rawPost(headers: Record<string, string>): Promise<number> {
  const url = new URL(endpoint.url);
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

test('the token file is readable by the user only and the server listens on 127.0.0.1', () => {
  assert.equal(statSync(tokenFile).mode & 0o777, 0o600);
  assert.match(endpoint.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
});

test('the SDK client with the bearer token remembers and recalls over Streamable HTTP', async () => {
  const client = new Client({ name: 'http-test', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(endpoint.url), {
      requestInit: { headers: { Authorization: `Bearer ${endpoint.token}` } },
    }),
  );
  const remembered = await client.callTool({
    name: 'memory_remember',
    arguments: { content: 'HTTP clients share the same memory' },
  });
  assert.equal(remembered.isError, undefined);
  const recalled = await client.callTool({
    name: 'memory_recall',
    arguments: { query: 'HTTP clients memory' },
  });
  assert.match(JSON.stringify(recalled.structuredContent), /HTTP clients share the same memory/);
  await client.close();
});

test('a foreign Host header is refused even with the token (DNS rebinding)', async () => {
  assert.equal(await rawPost({ host: 'evil.example:80', authorization: `Bearer ${endpoint.token}` }), 403);
});

test('a foreign Origin is refused', async () => {
  const port = new URL(endpoint.url).port;
  assert.equal(
    await rawPost({
      host: `127.0.0.1:${port}`,
      origin: 'http://evil.example',
      authorization: `Bearer ${endpoint.token}`,
    }),
    403,
  );
});

test('a missing or wrong token is refused', async () => {
  const host = new URL(endpoint.url).host;
  assert.equal(await rawPost({ host }), 401);
  assert.equal(await rawPost({ host, authorization: 'Bearer not-the-token' }), 401);
  assert.equal(await rawPost({ host, authorization: `Bearer ${endpoint.token}` }), 200);
});
