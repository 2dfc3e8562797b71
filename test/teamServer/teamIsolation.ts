import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { addToken, rpc, startTeamServer } from './teamServerProcess';
import type { TeamServerProcess } from './teamServerProcess';

/**
 * Two teams on one `engram serve --team` process (sql.js or `--store postgres://`): what one
 * team's token may see and change of the other's memories (nothing), checked over real HTTP with
 * each store's journal position and counts compared before and after every refusal.
 */
export interface IsolationServer {
  server: TeamServerProcess;
  tokens: { alpha: string; alphaReader: string; beta: string; legacy: string };
}

/** Tokens of teams alpha and beta, and one written before teams existed (no `team` field). */
export async function startIsolationServer(db: string, args: string[]): Promise<IsolationServer> {
  const tokens = {
    alpha: addToken(db, 'alice', 'memory:read,memory:write', 'alpha'),
    alphaReader: addToken(db, 'ann', 'memory:read', 'alpha'),
    beta: addToken(db, 'bob', 'memory:read,memory:write', 'beta'),
    legacy: addToken(db, 'old', 'memory:read,memory:write'),
  };
  const file = path.join(path.dirname(db), 'team-tokens.json');
  const contents = JSON.parse(readFileSync(file, 'utf8')) as {
    tokens: Array<{ user: string; team?: string }>;
  };
  for (const token of contents.tokens) if (token.user === 'old') delete token.team;
  writeFileSync(file, JSON.stringify(contents));
  return { server: await startTeamServer(db, ['--port', '0', ...args]), tokens };
}

let ids = 0;
const call = (method: string, params: Record<string, unknown> = {}) => ({
  id: `isolation-${process.pid}-${++ids}`,
  method,
  params,
});

interface StoreState {
  lastSeq: number;
  versions: number;
  events: number;
}

async function state(url: string, token: string): Promise<StoreState> {
  const answer = await rpc(url, token, call('stats'));
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const stats = answer.body['result'] as { versions: number; events: number; database: { lastSeq: number } };
  return { lastSeq: stats.database.lastSeq, versions: stats.versions, events: stats.events };
}

/** Every team's store, for "nothing changed anywhere". */
function allStates({ server, tokens }: IsolationServer): Promise<StoreState[]> {
  return Promise.all([tokens.alpha, tokens.beta, tokens.legacy].map((token) => state(server.url, token)));
}

/** The stores beta does not own: beta's reads may log read events in its own store, nowhere else. */
function othersThanBeta({ server, tokens }: IsolationServer): Promise<StoreState[]> {
  return Promise.all([tokens.alpha, tokens.legacy].map((token) => state(server.url, token)));
}

async function remember(url: string, token: string, content: string): Promise<string> {
  const answer = await rpc(url, token, call('remember', { content, tags: ['isolation'] }));
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return (answer.body['result'] as { memory: { id: string } }).memory.id;
}

const ALPHA_SECRET = 'Alpha rotates the payments signing key every Tuesday';

/** The checks, in order: each asserts its refusals and that no store changed. */
export async function checkIsolation(setup: IsolationServer): Promise<void> {
  const { server, tokens } = setup;
  const { url } = server;
  const alphaId = await remember(url, tokens.alpha, ALPHA_SECRET);
  await remember(url, tokens.beta, 'Beta deploys the billing service on Fridays');
  await remember(url, tokens.legacy, 'The default team keeps its memories where they were');

  // Reads by another team: its memory is not found, and never shows up in a listing or a search.
  let before = await othersThanBeta(setup);
  for (const [method, params] of [
    ['get', { id: alphaId }],
    ['history', { id: alphaId }],
  ] as const) {
    const answer = await rpc(url, tokens.beta, call(method, params));
    assert.equal(answer.status, 404, `${method} ${JSON.stringify(answer.body)}`);
    assert.equal((answer.body['error'] as { code: string }).code, 'NOT_FOUND');
  }
  for (const [method, params] of [
    ['list', { status: 'all' }],
    ['recall', { query: 'payments signing key Tuesday' }],
    ['timeline', { status: 'all' }],
    ['entities', {}],
    ['asOf', { time: new Date(Date.now() + 60_000).toISOString() }],
    ['events', {}],
    ['context', { query: 'payments signing key' }],
  ] as const) {
    const answer = await rpc(url, tokens.beta, call(method, params));
    assert.equal(answer.status, 200, `${method} ${JSON.stringify(answer.body)}`);
    const text = JSON.stringify(answer.body);
    assert.doesNotMatch(text, /rotates the payments|"alice"/i, method);
    assert.ok(!text.includes(alphaId), method);
  }
  // The default team (tokens made before teams) does not see alpha either.
  const legacyList = await rpc(url, tokens.legacy, call('list', { status: 'all' }));
  assert.doesNotMatch(JSON.stringify(legacyList.body), /rotates the payments/);
  assert.deepEqual(await othersThanBeta(setup), before);

  // Writes by another team to alpha's memory: not found, nothing changed in any store.
  before = await allStates(setup);
  for (const [method, params] of [
    ['edit', { id: alphaId, changes: { content: 'beta rewrote it' } }],
    ['annotate', { id: alphaId, text: 'beta was here' }],
    ['invalidate', { id: alphaId, reason: 'beta says so' }],
    ['forget', { id: alphaId }],
    ['restore', { id: alphaId }],
    ['pin', { id: alphaId }],
    ['unpin', { id: alphaId }],
  ] as const) {
    const answer = await rpc(url, tokens.beta, call(method, params));
    assert.equal(answer.status, 404, `${method} ${JSON.stringify(answer.body)}`);
  }
  assert.deepEqual(await allStates(setup), before);
  const own = await rpc(url, tokens.alphaReader, call('get', { id: alphaId }));
  assert.equal(own.status, 200);
  const memory = (own.body['result'] as { memory: { content: string; agent: string; status: string } })
    .memory;
  assert.deepEqual(
    { content: memory.content, agent: memory.agent, status: memory.status },
    { content: ALPHA_SECRET, agent: 'alice', status: 'active' },
  );

  // Missing and wrong tokens: 401; a read-only token writing: 403; nothing changed.
  before = await allStates(setup);
  assert.equal((await rpc(url, undefined, call('get', { id: alphaId }))).status, 401);
  assert.equal((await rpc(url, `${tokens.beta}x`, call('forget', { id: alphaId }))).status, 401);
  const readOnly = await rpc(url, tokens.alphaReader, call('forget', { id: alphaId }));
  assert.equal(readOnly.status, 403);
  const readOnlyNew = await rpc(url, tokens.alphaReader, call('remember', { content: 'ann writes' }));
  assert.equal(readOnlyNew.status, 403);
  assert.deepEqual(await allStates(setup), before);

  // Over MCP: beta's tools see beta's store only.
  before = await othersThanBeta(setup);
  const client = new Client({ name: 'beta-agent', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${tokens.beta}` } },
    }),
  );
  try {
    const got = (await client.callTool({ name: 'memory_get', arguments: { id: alphaId } })) as CallToolResult;
    assert.equal(got.isError, true);
    assert.match(JSON.stringify(got.content), /not found|no memory/i);
    const forgot = (await client.callTool({
      name: 'memory_forget',
      arguments: { id: alphaId },
    })) as CallToolResult;
    assert.equal(forgot.isError, true);
    for (const [name, args] of [
      ['memory_recall', { query: 'payments signing key Tuesday' }],
      ['memory_list', {}],
    ] as const) {
      const answer = (await client.callTool({ name, arguments: args })) as CallToolResult;
      assert.notEqual(answer.isError, true, `${name} ${JSON.stringify(answer.content)}`);
      assert.doesNotMatch(JSON.stringify(answer), /rotates the payments/i, name);
    }
  } finally {
    await client.close();
  }
  assert.deepEqual(await othersThanBeta(setup), before);
}
