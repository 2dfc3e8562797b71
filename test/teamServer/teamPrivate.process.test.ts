import assert from 'node:assert/strict';
import path from 'node:path';
import { after, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { tempDir } from '../support/temp';
import { addToken, rpc, startTeamServer } from './teamServerProcess';
import type { TeamServerProcess } from './teamServerProcess';

/**
 * On a team server every caller is its token's user (callerPolicy.ts): a `--private` memory is
 * its user's own. Another user of the same team, even an admin, reads the team's shared memories
 * and never the private one, over the engine protocol and over MCP, and cannot change it.
 */
let server: TeamServerProcess | undefined;
after(() => server?.stop());

let ids = 0;
const call = (method: string, params: Record<string, unknown> = {}) => ({
  id: `private-${process.pid}-${++ids}`,
  method,
  params,
});

const PRIVATE_TEXT = 'Alice drafts the reorg memo in notes only she reads: codename bluefin';

it("a team user's private memory: hidden from the other users' reads, replicas and writes, shown to its own user", async () => {
  const db = path.join(tempDir('engram-team-private-', { afterTest: false }), 'team.db');
  const alice = addToken(db, 'alice', 'memory:read,memory:write', 'core');
  const bob = addToken(db, 'bob', 'memory:read,memory:write,admin', 'core');
  server = await startTeamServer(db, ['--port', '0']);
  const { url } = server;
  const written = await rpc(url, alice, call('remember', { content: PRIVATE_TEXT, scope: 'private' }));
  assert.equal(written.status, 200, JSON.stringify(written.body));
  const secretId = (written.body['result'] as { memory: { id: string; agent: string } }).memory.id;
  const shared = await rpc(url, alice, call('remember', { content: 'The reorg memo is due on Friday' }));
  assert.equal(shared.status, 200);

  const later = new Date(Date.now() + 60_000).toISOString();
  const leaking: string[] = [];
  for (const [method, params] of [
    ['list', { status: 'all' }],
    ['recall', { query: 'reorg memo codename' }],
    ['context', { query: 'reorg memo codename' }],
    ['contextLevels', { query: 'reorg memo' }],
    ['timeline', { status: 'all' }],
    ['events', {}],
    ['asOf', { time: later }],
    ['replicaChanges', {}],
  ] as const) {
    const answer = await rpc(url, bob, call(method, params));
    assert.equal(answer.status, 200, `${method} ${JSON.stringify(answer.body)}`);
    const text = JSON.stringify(answer.body);
    if (text.includes('only she reads') || text.includes(secretId)) leaking.push(method);
    if (method === 'recall') assert.match(text, /due on Friday/, 'the shared memory is recalled');
  }
  assert.deepEqual(leaking, [], 'reads that show the private memory to another user');

  const answered: string[] = [];
  for (const [method, params] of [
    ['get', { id: secretId }],
    ['history', { id: secretId }],
    ['explain', { id: secretId }],
    ['edit', { id: secretId, changes: { content: 'bob rewrote it' } }],
    ['forget', { id: secretId }],
    ['pin', { id: secretId }],
    ['archive', { id: secretId }],
  ] as const) {
    const answer = await rpc(url, bob, call(method, params));
    if (answer.status !== 404) answered.push(`${method}: ${answer.status}`);
  }
  assert.deepEqual(answered, [], 'calls by id that find the private memory for another user');

  // Over MCP, with bob's token: the tools show nothing of it either.
  const client = new Client({ name: 'private-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${bob}` } },
    }),
  );
  const viaMcp = await client.callTool({
    name: 'memory_recall',
    arguments: { query: 'reorg memo codename' },
  });
  assert.doesNotMatch(JSON.stringify(viaMcp), /only she reads|bluefin/);
  assert.match(JSON.stringify(viaMcp), /due on Friday/);
  await client.close();

  // Alice still has it, unchanged.
  const own = await rpc(url, alice, call('get', { id: secretId }));
  assert.equal(own.status, 200);
  const memory = (own.body['result'] as { memory: { content: string; version: number; pinned: boolean } })
    .memory;
  assert.deepEqual([memory.content, memory.version, memory.pinned], [PRIVATE_TEXT, 1, false]);
  const mine = await rpc(url, alice, call('recall', { query: 'codename bluefin' }));
  assert.match(JSON.stringify(mine.body), /only she reads/);
});
