import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startChatCompletionServer } from '../support/chatCompletionServer';
import type { ChatCompletionServer, ChatReply } from '../support/chatCompletionServer';
import { tempDir } from '../support/temp';
import { engram } from './engramCli';
import { seedCluster } from './seededCluster';

/*
 * `engram consolidate --apply --summaries model` with the endpoint from the environment (a real
 * HTTP server on 127.0.0.1 as the model): the key comes from the variable named, nothing reaches
 * the database but the summary and the model's name; `explain` and `history` show the mark.
 */
let model: ChatCompletionServer;
let reply: ChatReply = { text: 'src/billing/retry.ts moved its retry queue to Redis.' };

before(async () => {
  model = await startChatCompletionServer(() => reply);
});
after(() => model.close());

const SECRET_KEY = 'sk-cli-secret-key-0123456789abcdef';

describe('CLI: consolidate --summaries model', () => {
  it('writes a model-written summary from the configured endpoint; explain and history show it', async () => {
    const cwd = tempDir('engram-cli-model-');
    const env = {
      ENGRAM_SUMMARY_URL: model.url,
      ENGRAM_SUMMARY_MODEL: 'local-llm',
      ENGRAM_SUMMARY_API_KEY_ENV: 'MY_LLM_KEY',
      MY_LLM_KEY: SECRET_KEY,
    };
    const members = await seedCluster(cwd, env);
    const done = await engram(cwd, ['consolidate', '--apply', '--summaries', 'model'], env);
    assert.equal(done.code, 0, done.err);
    assert.match(done.out, /model-written by openai-compatible:local-llm-served/);
    assert.equal(model.requests.length, 1);
    assert.equal(model.requests[0]!.authorization, `Bearer ${SECRET_KEY}`);
    const id = /(m_\S+) <- /.exec(done.out)?.[1];
    assert.ok(id, done.out);
    const explained = await engram(cwd, ['explain', id], env);
    assert.match(explained.out, /written by model/);
    assert.match(explained.out, /summary: model-written by openai-compatible:local-llm-served/);
    const history = await engram(cwd, ['history', members[0]!], env);
    assert.ok(history.out.includes(id), history.out);
    const shown = await engram(cwd, ['--json', 'get', id], env);
    assert.ok(!shown.out.includes(SECRET_KEY) && shown.out.includes('model-written'), shown.out);
  });

  it('keeps the extractive summary and says why when the endpoint fails, or none is configured', async () => {
    reply = { status: 500, body: 'overloaded' };
    const cwd = tempDir('engram-cli-model-');
    const env = { ENGRAM_SUMMARY_URL: model.url, ENGRAM_SUMMARY_MODEL: 'local-llm' };
    await seedCluster(cwd, env);
    const failed = await engram(cwd, ['consolidate', '--apply', '--summaries', 'model'], env);
    assert.equal(failed.code, 0, failed.err);
    assert.match(
      failed.out,
      /extractive summary \(openai-compatible: POST \S+\/chat\/completions returned 500 Internal Server Error: overloaded\)/,
    );

    const unset = tempDir('engram-cli-model-');
    await seedCluster(unset);
    const none = await engram(unset, ['consolidate', '--apply', '--summaries', 'model']);
    assert.match(
      none.out,
      /extractive summary \(no language model configured \(ENGRAM_SUMMARY_URL is not set\)\)/,
    );
    const bad = await engram(unset, ['consolidate', '--apply', '--summaries', 'gpt']);
    assert.notEqual(bad.code, 0);
    assert.match(bad.err, /--summaries must be extractive or model; got gpt/);
  });
});
