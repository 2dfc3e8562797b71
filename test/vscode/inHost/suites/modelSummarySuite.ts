import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ConsolidationReport } from '../../../../extension/consolidationReport';
import type { ChatModelFixture } from '../chatModelExtension/extension';
import { engramApi } from '../extensionApi';
import { test } from '../harness';

/*
 * Consolidate Now with engram.lifecycle.summaries at "model": a chat model registered through VS
 * Code's Language Model API by a second extension (test/vscode/inHost/chatModelExtension) writes
 * the summary, marked as lc7 defined (trust model, tag model-written, provider:model in its
 * context and its event); when the model fails, the extractive gist is kept with the reason.
 */
const DAY = 24 * 60 * 60 * 1000;
const TOKEN = `ghp_${'Z9y8X7w6V5'.repeat(3)}abcdef`;
const MODEL_TEXT = 'Kari moved the Oslo office to the harbour building in May, on a five-year Oslo lease.';

async function chatModel(): Promise<ChatModelFixture> {
  const extension = vscode.extensions.getExtension<ChatModelFixture>('engram-test.chat-model-fixture');
  if (!extension) throw new Error('the test chat model extension is not loaded in this host');
  const fixture = await extension.activate();
  fixture.prompts.length = 0;
  return fixture;
}

/** A faded session of three episodes about the Oslo move, one of them holding a token. */
async function osloSession(session: string): Promise<string[]> {
  const api = await engramApi();
  const members: string[] = [];
  for (const content of [
    'Kari signed the lease for the new Oslo office in the harbour building.',
    `The Oslo office move happens in May; the movers' portal token is ${TOKEN}.`,
    'The Oslo lease runs five years with a break clause after three.',
  ])
    members.push(
      (
        await api.engine.call('remember', {
          content,
          layer: 'episodic',
          dedupe: false,
          validFrom: Date.now() - 60 * DAY,
          actor: { session },
        })
      ).memory.id,
    );
  return members;
}

/** The two settings in the workspace; undefined removes them (the defaults: extractive, any model). */
async function summariesBy(writer?: string, model?: string): Promise<void> {
  const config = vscode.workspace.getConfiguration('engram.lifecycle');
  await config.update('summaries', writer, vscode.ConfigurationTarget.Workspace);
  await config.update('summaryModel', model, vscode.ConfigurationTarget.Workspace);
}

/** Consolidate Now, applied; the summary made of `members`, and undo for the next test. */
async function consolidateNow(members: string[]): Promise<{ id: string; done: ConsolidationReport }> {
  const done = await vscode.commands.executeCommand<ConsolidationReport>('engram.consolidateNow', 'apply');
  const index = done.consolidation.clusters.findIndex((c) => members.every((m) => c.members.includes(m)));
  assert.ok(index >= 0, JSON.stringify(done.consolidation.clusters));
  return { id: done.consolidation.created[index]!, done };
}

async function consolidateEvent(id: string): Promise<{ by: string; model?: string; reason?: string }> {
  const explained = await (await engramApi()).engine.call('explain', { id });
  return explained.summary as { by: string; model?: string; reason?: string };
}

test('with summaries "model", a VS Code chat model writes the summary, marked model-written', async () => {
  const api = await engramApi();
  const model = await chatModel();
  model.answer = (prompt) => (prompt.includes('Oslo') ? MODEL_TEXT : new Error('not this cluster'));
  const members = await osloSession('oslo-move');
  await summariesBy('model', 'engram-test/engram-test-family');
  try {
    const { id, done } = await consolidateNow(members);
    const made = (await api.engine.call('get', { id, readOnly: true })).memory;
    assert.equal(made.content, MODEL_TEXT);
    assert.equal(made.trust, 'model');
    assert.ok(made.tags.includes('model-written'), made.tags.join(','));
    assert.match(made.context ?? '', /summary written by vscode-lm:engram-test\/echo-1/);
    assert.deepEqual(await consolidateEvent(id), { by: 'model', model: 'vscode-lm:engram-test/echo-1' });
    // Provenance as for an extractive gist: the members, superseded, each named in the context.
    for (const member of members) {
      assert.ok((made.context ?? '').includes(member));
      assert.equal(
        (await api.engine.call('get', { id: member, readOnly: true })).memory.status,
        'superseded',
      );
    }
    // What the model read: the members' texts, the token redacted before it was sent.
    const sent = model.prompts.find((p) => p.includes('Oslo')) ?? '';
    assert.ok(sent.includes('break clause after three'), sent);
    assert.ok(!sent.includes(TOKEN), 'the token was redacted before it was sent');
    await vscode.commands.executeCommand('engram.undoConsolidation', done);
  } finally {
    await summariesBy();
  }
});

test('when the chat model fails or none matches, Consolidate Now keeps the extractive summary and says why', async () => {
  const api = await engramApi();
  const model = await chatModel();
  model.answer = () => new Error('the test model is overloaded');
  const members = await osloSession('oslo-move-failed');
  await summariesBy('model', 'engram-test');
  try {
    const failed = await consolidateNow(members);
    const made = (await api.engine.call('get', { id: failed.id, readOnly: true })).memory;
    assert.equal(made.trust, 'consolidation');
    assert.ok(!made.tags.includes('model-written'));
    assert.ok(model.prompts.length > 0, 'the model was asked');
    const event = await consolidateEvent(failed.id);
    assert.equal(event.by, 'extractive');
    assert.match(event.reason ?? '', /^vscode-lm: .*the test model is overloaded/);
    await vscode.commands.executeCommand('engram.undoConsolidation', failed.done);

    // A selector no model matches: nothing is asked, and the reason names the setting.
    model.prompts.length = 0;
    await summariesBy('model', 'no-such-vendor');
    const unmatched = await consolidateNow(members);
    assert.deepEqual(await consolidateEvent(unmatched.id), {
      by: 'extractive',
      reason: 'no VS Code language model matches engram.lifecycle.summaryModel "no-such-vendor"',
    });
    assert.equal(model.prompts.length, 0);
    await vscode.commands.executeCommand('engram.undoConsolidation', unmatched.done);
  } finally {
    await summariesBy();
  }
});
