import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { openAiSummariser, summaryEndpointFromEnv } from '../../engine/lifecycle/openAiSummariser';
import { consolidateWithModel } from '../../engine/lifecycle/summariser';
import type { MethodResult } from '../../engine/api/methods';
import { startChatCompletionServer } from '../support/chatCompletionServer';
import type { ChatCompletionServer, ChatReply } from '../support/chatCompletionServer';
import { openTestHost } from '../support/host';
import type { TestHost } from '../support/host';

/*
 * Issue 21 section 3.3: a consolidated memory's summary written by a language model (here an
 * OpenAI-compatible endpoint: a real HTTP server on 127.0.0.1 answering as the model would),
 * marked as such, and the extractive gist with the reason whenever the model fails or its answer
 * is unfit.
 */
const TOKEN = `ghp_${'a1B2c3D4e5'.repeat(3)}abcdef`;
let model: ChatCompletionServer;
const MODEL_TEXT = 'The billing retry worker in src/billing/retry.ts moved its queue to Redis.';
let reply: ChatReply;

before(async () => {
  model = await startChatCompletionServer(() => reply);
});
after(() => model.close());
beforeEach(() => {
  model.requests.length = 0;
  reply = { text: MODEL_TEXT };
});

async function clusterOfThree(): Promise<{ t: TestHost; members: string[] }> {
  const t = await openTestHost();
  const members: string[] = [];
  for (const content of [
    'The billing worker in src/billing/retry.ts retries invoices on timeout. It logs to stderr.',
    `We moved the queue of src/billing/retry.ts to Redis last week. The deploy token was ${TOKEN}.`,
    'Redis keys for billing invoices expire after a day.',
  ]) {
    const made = await t.call('remember', { content, layer: 'episodic', dedupe: false });
    members.push((made as { memory: { id: string } }).memory.id);
  }
  for (const id of [...members, ...members]) await t.call('get', { id });
  return { t, members };
}

type Consolidated = MethodResult<'consolidate'>;

function consolidate(t: TestHost, timeoutMs?: number): Promise<Consolidated> {
  return consolidateWithModel(
    (params) => t.call('consolidate', params),
    openAiSummariser({ url: model.url, model: 'fake-gpt', apiKey: 'sk-test' }),
    timeoutMs === undefined ? {} : { timeoutMs },
  );
}

function summaryEvent(
  t: TestHost,
  id: string,
): { summary?: { by: string; model?: string; reason?: string } } {
  const data = t.host.store.read((r) =>
    r.value<string>("SELECT data FROM events WHERE type = 'consolidate' AND memory_id = ?", [id]),
  );
  return JSON.parse(data ?? '{}') as { summary?: { by: string; model?: string; reason?: string } };
}

async function memoryOf(t: TestHost, id: string) {
  return (await t.call('get', { id, readOnly: true })).memory;
}

describe('lifecycle: model-written consolidation summaries', () => {
  it('uses the model summary, marked model-written with the model and a lower trust; provenance unchanged', async () => {
    const { t, members } = await clusterOfThree();
    const done = await consolidate(t);
    assert.equal(done.created.length, 1);
    const id = done.created[0]!;
    const made = await memoryOf(t, id);
    assert.equal(made.content, MODEL_TEXT);
    assert.equal(made.trust, 'model');
    assert.ok(made.tags.includes('model-written'), made.tags.join(','));
    assert.match(made.context ?? '', /summary written by openai-compatible:fake-gpt-served/);
    for (const member of members) assert.ok((made.context ?? '').includes(member));
    const event = summaryEvent(t, id) as { summary?: unknown; members?: string[] };
    assert.deepEqual(event.summary, { by: 'model', model: 'openai-compatible:fake-gpt-served' });
    assert.deepEqual(event.members, members);
    for (const member of members) assert.equal((await memoryOf(t, member)).status, 'superseded');
    // Trusted less than the extractive gist: `explain` shows it, and its source-trust factor.
    const explained = await t.call('explain', { id });
    assert.equal(explained.trust, 'model');
    const trust = explained.importance.factors.find((f) => f.factor === 'sourceTrust');
    assert.equal(trust?.value, 0.3);

    // What was sent: one request to /chat/completions with the key, the entities, the texts redacted.
    assert.equal(model.requests.length, 1);
    const [request] = model.requests;
    assert.equal(request!.path, '/v1/chat/completions');
    assert.equal(request!.authorization, 'Bearer sk-test');
    const sent = JSON.stringify(request!.body.messages);
    assert.ok(sent.includes('Redis keys for billing invoices'), sent);
    assert.ok(sent.includes('src/billing/retry.ts'), sent);
    assert.ok(!sent.includes(TOKEN), 'the secret was redacted before it was sent');
    await t.host.close();
  });

  const failures: Array<[string, () => ChatReply, RegExp, number?]> = [
    [
      'an HTTP 500',
      () => ({ status: 500, body: '{"error":"overloaded"}' }),
      /^openai-compatible: POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions returned 500 Internal Server Error: overloaded$/,
    ],
    ['no answer in time', () => 'hang', /no answer within 300 ms/, 300],
    [
      'garbage instead of a completion',
      () => ({ raw: '<html>502 Bad Gateway</html>' }),
      /returned a body that is not JSON: <html>502 Bad Gateway<\/html>$/,
    ],
    [
      'JSON that is no chat completion',
      () => ({ raw: '{"object":"list","data":[]}' }),
      /not a chat completion/,
    ],
    [
      'a summary over the limit',
      () => ({ text: `Redis ${'and more '.repeat(200)}` }),
      /over the limit of 1200/,
    ],
    [
      'a summary naming none of the entities',
      () => ({ text: 'Things happened to some code.' }),
      /names none/,
    ],
    ['an empty summary', () => ({ text: '   ' }), /no text/],
  ];
  for (const [what, answer, reason, timeoutMs] of failures)
    it(`keeps the extractive gist on ${what}, and records why`, async () => {
      reply = answer();
      const { t } = await clusterOfThree();
      const extractive = await t.call('consolidate', {});
      const done = await consolidate(t, timeoutMs);
      assert.equal(done.created.length, 1);
      const id = done.created[0]!;
      const made = await memoryOf(t, id);
      assert.equal(made.content, extractive.clusters[0]!.summary);
      assert.equal(made.trust, 'consolidation');
      assert.ok(!made.tags.includes('model-written'));
      const summary = summaryEvent(t, id).summary;
      assert.equal(summary?.by, 'extractive');
      assert.match(summary?.reason ?? '', reason);
      assert.match(done.clusters[0]!.origin?.by ?? '', /extractive/);
      await t.host.close();
    });

  it('falls back when the cluster changed between the question and the apply', async () => {
    const { t, members } = await clusterOfThree();
    const done = await consolidateWithModel(
      async (params) => {
        // After the model answered, a member is edited: the summary is for a cluster no longer planned.
        if (!params.dryRun)
          await t.call('edit', {
            id: members[2]!,
            changes: { content: 'Redis keys now expire after a week.' },
          });
        return t.call('consolidate', params);
      },
      openAiSummariser({ url: model.url, model: 'fake-gpt' }),
    );
    for (const id of done.created) {
      const summary = summaryEvent(t, id).summary;
      assert.equal(summary?.by, 'extractive');
      assert.match(summary?.reason ?? '', /changed since the model was asked/);
    }
    await t.host.close();
  });

  it('names the endpoint and the network cause when nothing listens there', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const { t } = await clusterOfThree();
    const done = await consolidateWithModel(
      (params) => t.call('consolidate', params),
      openAiSummariser({ url: `http://127.0.0.1:${port}/v1`, model: 'fake-gpt' }),
    );
    assert.equal(
      summaryEvent(t, done.created[0]!).summary?.reason,
      `openai-compatible: POST http://127.0.0.1:${port}/v1/chat/completions failed: fetch failed (ECONNREFUSED)`,
    );
    await t.host.close();
  });

  it('refuses an endpoint URL it cannot post to, naming the variable', () => {
    for (const url of ['ftp://models.example/v1', 'http://localhost:11434/v1?key=1'])
      assert.throws(
        () => summaryEndpointFromEnv({ ENGRAM_SUMMARY_URL: url, ENGRAM_SUMMARY_MODEL: 'm' }),
        (error: Error) =>
          error.message ===
          `ENGRAM_SUMMARY_URL must be an http(s) URL without a query or fragment; got ${url}`,
      );
  });

  it('sends nothing and writes the extractive gist when no model is configured', async () => {
    const { t } = await clusterOfThree();
    const done = await consolidateWithModel((params) => t.call('consolidate', params), {
      unavailable: 'no language model configured',
    });
    const summary = summaryEvent(t, done.created[0]!).summary;
    assert.deepEqual(summary, { by: 'extractive', reason: 'no language model configured' });
    assert.equal(model.requests.length, 0);
    await t.host.close();
  });
});
