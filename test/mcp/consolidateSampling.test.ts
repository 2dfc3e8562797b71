import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { CreateMessageRequest, CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import { seedCluster } from '../cli/seededCluster';
import { callTool, tempWorkspace } from './bridgeProcess';
import { connectBridge } from './inProcessBridge';

/*
 * Issue 21 section 3.3 through MCP: memory_consolidate with `summaries: model` asks the client's
 * own model (sampling/createMessage) when the client declares sampling, a real SDK client with a
 * sampling handler against the bridge's server; the summary is marked, and a refusal or a client
 * without sampling leaves the extractive gist with the reason.
 */
type Cluster = {
  members: string[];
  summary: string;
  origin?: { by: string; model?: string; reason?: string };
};
type Explained = { trust: string; summary?: { by: string; model?: string } };

/** Closed after each test, also after a failed assertion (an open bridge keeps the process alive). */
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const bridge of open.splice(0)) await bridge.close();
});

async function seeded(sampling?: (request: CreateMessageRequest) => Promise<CreateMessageResult>) {
  // Seeded through the CLI: reads through MCP's read-only tools note no access.
  const workspace = tempWorkspace();
  const ids = await seedCluster(workspace);
  const bridge = await connectBridge(workspace, {
    name: 'sampling-client',
    ...(sampling ? { sampling } : {}),
  });
  const call = <T>(name: string, args: Record<string, unknown> = {}) =>
    callTool<T>(bridge.client, name, args);
  open.push(bridge);
  return { call, ids };
}

describe('MCP: memory_consolidate with model summaries', () => {
  it("writes the summary with the client's model through sampling, marked model-written", async () => {
    const asked: CreateMessageRequest[] = [];
    const { call, ids } = await seeded((request) => {
      asked.push(request);
      return Promise.resolve({
        role: 'assistant',
        model: 'client-model-1',
        content: { type: 'text', text: 'src/billing/retry.ts retries invoices; its queue is in Redis.' },
      });
    });
    const done = await call<{ created: string[]; clusters: Cluster[] }>('memory_consolidate', {
      dryRun: false,
      summaries: 'model',
    });
    assert.equal(done.created.length, 1);
    assert.deepEqual(done.clusters[0]!.origin, { by: 'model', model: 'mcp-sampling:client-model-1' });
    assert.equal(asked.length, 1);
    const sent = JSON.stringify(asked[0]!.params);
    assert.ok(sent.includes('Redis keys for billing invoices expire after a day.'), sent);
    assert.equal(asked[0]!.params.includeContext, 'none');
    const made = await call<{ memory: { content: string; trust: string; tags: string[] } }>('memory_get', {
      id: done.created[0],
    });
    assert.equal(made.memory.content, 'src/billing/retry.ts retries invoices; its queue is in Redis.');
    assert.equal(made.memory.trust, 'model');
    assert.ok(made.memory.tags.includes('model-written'));
    const explained = await call<Explained>('memory_explain', { id: done.created[0] });
    assert.deepEqual(explained.summary, { by: 'model', model: 'mcp-sampling:client-model-1' });
    const history = await call<{ versions: Array<{ status: string; supersededBy?: string }> }>(
      'memory_history',
      { id: ids[0] },
    );
    assert.ok(JSON.stringify(history).includes(done.created[0]!), JSON.stringify(history));
  });

  it("keeps the extractive gist with the client's refusal as the reason", async () => {
    const { call } = await seeded(() => Promise.reject(new Error('User rejected sampling request')));
    const done = await call<{ created: string[]; clusters: Cluster[] }>('memory_consolidate', {
      dryRun: false,
      summaries: 'model',
    });
    assert.equal(done.created.length, 1);
    assert.equal(done.clusters[0]!.origin?.by, 'extractive');
    assert.match(done.clusters[0]!.origin?.reason ?? '', /mcp-sampling: .*User rejected sampling request/);
    const explained = await call<Explained>('memory_explain', { id: done.created[0] });
    assert.equal(explained.trust, 'consolidation');
  });

  it('says why when the client offers no sampling, and sends nothing', async () => {
    const { call } = await seeded();
    const done = await call<{ created: string[]; clusters: Cluster[] }>('memory_consolidate', {
      dryRun: false,
      summaries: 'model',
    });
    assert.equal(done.created.length, 1);
    assert.deepEqual(done.clusters[0]!.origin, {
      by: 'extractive',
      reason: 'the MCP client does not offer sampling and no ENGRAM_SUMMARY_URL is set',
    });
  });
});
