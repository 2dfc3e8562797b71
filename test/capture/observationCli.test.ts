import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { claudeProjectName } from '../../engine/capture/workspaceSources';
import { engram } from '../cli/engramCli';
import { startChatCompletionServer } from '../support/chatCompletionServer';
import type { ChatCompletionServer } from '../support/chatCompletionServer';
import { tempDir } from '../support/temp';
import { GROUNDED_ANSWER, checkoutSession } from './sessionTranscripts';

/*
 * The opt-in as the CLI has it: `engram capture observations model`, then `capture run` asks the
 * endpoint in ENGRAM_SUMMARY_URL (a real HTTP server on 127.0.0.1 as the model) about the quiet
 * sessions, once per state of each; off, or from a hook, it asks nothing.
 */
let model: ChatCompletionServer;
before(async () => {
  model = await startChatCompletionServer(() => ({ text: GROUNDED_ANSWER }));
});
after(() => model.close());

function workspace(): { root: string; env: Record<string, string> } {
  const home = tempDir();
  const root = path.join(home, 'work', 'checkout');
  const dir = path.join(home, '.claude', 'projects', claudeProjectName(root));
  mkdirSync(dir, { recursive: true });
  mkdirSync(path.join(root, '.git'), { recursive: true });
  writeFileSync(path.join(dir, 'c0ffee00-2222.jsonl'), checkoutSession(root, 'c0ffee00-2222', 60));
  return {
    root,
    env: {
      HOME: home,
      CLAUDE_CONFIG_DIR: '',
      CODEX_HOME: '',
      GEMINI_CLI_HOME: '',
      XDG_DATA_HOME: '',
      ENGRAM_SUMMARY_URL: model.url,
      ENGRAM_SUMMARY_MODEL: 'fake-gpt',
    },
  };
}

test('capture run asks the model only once opted in, not from a hook, and once per session state', async () => {
  const { root, env } = workspace();
  await engram(root, ['capture', 'enable'], env);
  const off = await engram(root, ['capture', 'run'], env);
  assert.equal(off.code, 0, off.err);
  assert.ok(!off.out.includes('observations'), off.out);
  assert.equal(model.requests.length, 0);

  const opted = await engram(root, ['capture', 'observations', 'model'], env);
  assert.match(opted.out, /^observations: rules, and the language model in ENGRAM_SUMMARY_URL/);
  assert.match(
    (await engram(root, ['capture', 'status'], env)).out,
    /observations: rules and a language model/,
  );
  const hook = await engram(root, ['capture', 'run', '--from-hook'], env);
  assert.equal(hook.code, 0, hook.err);
  assert.equal(model.requests.length, 0, 'a hook waits for its command: it never asks the model');

  const run = await engram(root, ['capture', 'run'], env);
  assert.equal(run.code, 0, run.err);
  assert.match(
    run.out,
    /observations of c0ffee00-2222: 2 written by openai-compatible:fake-gpt-served \(model-written\)/,
  );
  assert.equal(model.requests.length, 1);
  const again = await engram(root, ['capture', 'run'], env);
  assert.ok(!again.out.includes('observations of'), again.out);
  assert.equal(model.requests.length, 1);

  const named = await engram(root, ['capture', 'observe', '--session', 'c0ffee00-2222'], env);
  assert.match(named.out, /observations of c0ffee00-2222: 0 written/);
  assert.equal(model.requests.length, 2, 'naming a session asks again');

  const unset = await engram(root, ['capture', 'observe', '--session', 'c0ffee00-2222'], {
    ...env,
    ENGRAM_SUMMARY_URL: '',
  });
  assert.match(unset.out, /1 session\(s\) wait for a model: no language model configured/);
  assert.equal((await engram(root, ['capture', 'observations', 'sometimes'], env)).code, 1);
});
