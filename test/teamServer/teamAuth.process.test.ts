import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI } from '../cli/engramCli';
import { tempDir } from '../support/temp';
import { addToken, rpc, startTeamServer, teamEnv } from './teamServerProcess';
import type { TeamServerProcess } from './teamServerProcess';

let server: TeamServerProcess;
let db: string;
const tokens = { writer: '', reader: '', admin: '', revoked: '' };

before(async () => {
  db = path.join(tempDir('engram-team-server-', { afterTest: false }), 'team.db');
  tokens.writer = addToken(db, 'alice', 'memory:read,memory:write');
  tokens.reader = addToken(db, 'bob', 'memory:read');
  tokens.admin = addToken(db, 'root', 'admin');
  tokens.revoked = addToken(db, 'eve', 'memory:write');
  server = await startTeamServer(db, ['--port', '0']);
});
after(() => server.stop());

let ids = 0;
const requestId = () => `test-request-${++ids}`;
const remember = (content: string, extra: Record<string, unknown> = {}) => ({
  id: requestId(),
  method: 'remember',
  params: { content, ...extra },
});

/** The store's journal position and counts: a refused request must leave all of them as they were. */
async function storeState(): Promise<{ lastSeq: number; versions: number; events: number }> {
  const answer = await rpc(server.url, tokens.admin, { id: requestId(), method: 'stats', params: {} });
  assert.equal(answer.status, 200);
  const stats = answer.body['result'] as { versions: number; events: number; database: { lastSeq: number } };
  return { lastSeq: stats.database.lastSeq, versions: stats.versions, events: stats.events };
}

describe('the team server refuses', () => {
  it('a request without a token, or with a wrong one, with 401, and changes nothing', async () => {
    const before = await storeState();
    const none = await rpc(server.url, undefined, remember('no token'));
    assert.equal(none.status, 401);
    assert.equal(none.headers.get('www-authenticate'), 'Bearer');
    const wrong = await rpc(server.url, `${tokens.writer}x`, remember('wrong token'));
    assert.equal(wrong.status, 401);
    const mcp = await fetch(`${server.url}/mcp`, { method: 'POST', body: '{}' });
    assert.equal(mcp.status, 401);
    assert.deepEqual(await storeState(), before);
  });

  it('a write with a read-only token with 403, and changes nothing', async () => {
    const before = await storeState();
    const answer = await rpc(server.url, tokens.reader, remember('read-only tries to write'));
    assert.equal(answer.status, 403);
    assert.match(
      String((answer.body['error'] as { message: string }).message),
      /needs the memory:write scope/,
    );
    assert.deepEqual(await storeState(), before);
    // Reads are what it may do.
    for (const [method, params] of [
      ['list', {}],
      ['skills', { query: 'how do we release?' }],
      ['contextLevels', { query: 'release', budget: 300 }],
    ] as const) {
      const read = await rpc(server.url, tokens.reader, { id: requestId(), method, params });
      assert.equal(read.status, 200, method);
    }
  });

  it('a revoked token from the next request, without a restart', async () => {
    const first = await rpc(server.url, tokens.revoked, remember('before revocation'));
    assert.equal(first.status, 200);
    const list = spawnSync(process.execPath, [CLI, '--db', db, '--json', 'team', 'token', 'list'], {
      encoding: 'utf8',
      env: teamEnv(),
    });
    const eve = (JSON.parse(list.stdout) as Array<{ id: string; user: string }>).find(
      (t) => t.user === 'eve',
    )!;
    const revoke = spawnSync(process.execPath, [CLI, '--db', db, 'team', 'token', 'revoke', eve.id], {
      encoding: 'utf8',
      env: teamEnv(),
    });
    assert.equal(revoke.status, 0, revoke.stderr);
    const before = await storeState();
    const second = await rpc(server.url, tokens.revoked, remember('after revocation'));
    assert.equal(second.status, 401);
    assert.deepEqual(await storeState(), before);
  });

  it('methods that touch the server’s own disk, even for admin', async () => {
    const before = await storeState();
    for (const [method, params] of [
      ['import', { file: '/etc/passwd', from: 'engram' }],
      ['export', { format: 'jsonl', file: path.join(path.dirname(db), 'leak.jsonl') }],
      ['captureRun', {}],
    ] as const) {
      const answer = await rpc(server.url, tokens.admin, { id: requestId(), method, params });
      assert.equal(answer.status, 403, method);
      assert.match(
        String((answer.body['error'] as { message: string }).message),
        /not served by the team server/,
      );
    }
    assert.deepEqual(await storeState(), before);
  });
});

describe('the team server records and answers', () => {
  it('the token’s user as the agent of a write, whatever the caller claims', async () => {
    const answer = await rpc(
      server.url,
      tokens.writer,
      remember('alice decided on tabs', { actor: { agent: 'root' } }),
    );
    assert.equal(answer.status, 200);
    const memory = (answer.body['result'] as { memory: { agent: string } }).memory;
    assert.equal(memory.agent, 'alice');
  });

  it('a write re-sent under the same request id once, with the first answer', async () => {
    const request = remember('sent twice, kept once');
    const first = await rpc(server.url, tokens.writer, request);
    const versions = (await storeState()).versions;
    const second = await rpc(server.url, tokens.writer, request);
    assert.equal(second.status, 200);
    assert.deepEqual(second.body, first.body);
    assert.equal((await storeState()).versions, versions);
    // Another user's request under the same id is its own: ids are namespaced by user.
    const other = await rpc(server.url, tokens.admin, {
      ...request,
      params: { content: 'root reuses the id' },
    });
    assert.equal(
      (other.body['result'] as { memory: { content: string } }).memory.content,
      'root reuses the id',
    );
  });

  it('the team’s lifecycle settings to every reader, changed by admin only', async () => {
    const read = await rpc(server.url, tokens.reader, {
      id: requestId(),
      method: 'lifecycleSettings',
      params: {},
    });
    assert.equal(read.status, 200, JSON.stringify(read.body));
    const halfLife = (read.body['result'] as { halfLifeDays: number }).halfLifeDays;
    const change = { id: requestId(), method: 'configureLifecycle', params: { halfLifeDays: halfLife + 7 } };
    const before = await storeState();
    const refused = await rpc(server.url, tokens.writer, change);
    assert.equal(refused.status, 403);
    assert.match(String((refused.body['error'] as { message: string }).message), /needs the admin scope/);
    assert.deepEqual(await storeState(), before);
    const changed = await rpc(server.url, tokens.admin, change);
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    const after = await rpc(server.url, tokens.reader, {
      id: requestId(),
      method: 'lifecycleSettings',
      params: {},
    });
    assert.equal((after.body['result'] as { halfLifeDays: number }).halfLifeDays, halfLife + 7);
  });

  it('/healthz without a token, /metrics with one, in Prometheus text', async () => {
    const health = await fetch(`${server.url}/healthz`);
    assert.equal(health.status, 200);
    assert.equal(((await health.json()) as { ok: boolean }).ok, true);
    assert.equal((await fetch(`${server.url}/metrics`)).status, 401);
    const metrics = await fetch(`${server.url}/metrics`, {
      headers: { authorization: `Bearer ${tokens.reader}` },
    });
    assert.equal(metrics.status, 200);
    const text = await metrics.text();
    assert.match(text, /^engram_http_requests_total\{method="remember",status="403"\} 1$/m);
    assert.match(text, /^engram_http_requests_total\{method="rpc",status="401"\} \d+$/m);
    assert.match(text, /^engram_http_request_duration_seconds_bucket\{le="\+Inf"\} \d+$/m);
    assert.match(text, /^engram_memories\{status="active"\} [1-9]\d*$/m);
  });

  it('MCP over Streamable HTTP with the token’s scopes and user', async () => {
    const connect = async (token: string) => {
      const client = new Client({ name: 'claimed-agent', version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      return client;
    };
    const reader = await connect(tokens.reader);
    const readerTransport = reader.transport as StreamableHTTPClientTransport;
    // Another token cannot ride on this session.
    const hijack = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.writer}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': readerTransport.sessionId!,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    assert.equal(hijack.status, 403);
    const before = await storeState();
    const refused = (await reader.callTool({
      name: 'memory_remember',
      arguments: { content: 'bob over mcp' },
    })) as CallToolResult;
    assert.equal(refused.isError, true);
    assert.match(JSON.stringify(refused.content), /needs the memory:write scope/);
    assert.deepEqual(await storeState(), before);
    await reader.close();

    const writer = await connect(tokens.writer);
    const written = (await writer.callTool({
      name: 'memory_remember',
      arguments: { content: 'alice over mcp' },
    })) as CallToolResult;
    assert.notEqual(written.isError, true, JSON.stringify(written.content));
    await writer.close();
    const list = await rpc(server.url, tokens.admin, {
      id: requestId(),
      method: 'list',
      params: { limit: 1 },
    });
    const [latest] = (list.body['result'] as { items: Array<{ content: string; agent: string }> }).items;
    assert.equal(latest?.content, 'alice over mcp');
    assert.equal(latest?.agent, 'alice');
  });
});
