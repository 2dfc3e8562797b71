import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { engramApi } from '../extensionApi';
import { test } from '../harness';
import { RecordingChatStream } from '../recordingChatStream';

const TOOLS = ['engram_recall', 'engram_remember', 'engram_context', 'engram_drift_check'];

function toolText(result: vscode.LanguageModelToolResult): string {
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

/** A chat request as VS Code builds it, for a participant command; no language model attached. */
function chatRequest(command: string | undefined, prompt: string): vscode.ChatRequest {
  return {
    prompt,
    command,
    references: [],
    toolReferences: [],
    toolInvocationToken: undefined as unknown as vscode.ChatParticipantToolToken,
  } as unknown as vscode.ChatRequest;
}

async function ask(
  command: string | undefined,
  prompt: string,
): Promise<{ stream: RecordingChatStream; result: vscode.ChatResult }> {
  const api = await engramApi();
  const stream = new RecordingChatStream();
  const source = new vscode.CancellationTokenSource();
  const result =
    (await api.chatHandler(chatRequest(command, prompt), { history: [] }, stream, source.token)) ?? {};
  return { stream, result };
}

test('the language-model tools are registered and answer through vscode.lm.invokeTool', async () => {
  await engramApi();
  const names = vscode.lm.tools.map((t) => t.name);
  for (const name of TOOLS) assert.ok(names.includes(name), `${name} is registered`);
  const remembered = toolText(
    await vscode.lm.invokeTool('engram_remember', {
      input: {
        content: 'The payments webhook must be idempotent: Stripe retries for three days',
        kind: 'decision',
      },
      toolInvocationToken: undefined,
    }),
  );
  assert.match(remembered, /^added: \[m_\w{6}\]/);
  const recalled = toolText(
    await vscode.lm.invokeTool('engram_recall', {
      input: { query: 'payments webhook retries' },
      toolInvocationToken: undefined,
    }),
  );
  assert.match(recalled, /Stripe retries for three days/);
  const context = toolText(
    await vscode.lm.invokeTool('engram_context', {
      input: { query: 'payments webhook', budget: 300 },
      toolInvocationToken: undefined,
    }),
  );
  assert.match(context, /idempotent/);
  const drift = toolText(
    await vscode.lm.invokeTool('engram_drift_check', { input: {}, toolInvocationToken: undefined }),
  );
  assert.ok(drift.length > 0);
});

test('@engram /remember and /recall stream Markdown with references, without a language model', async () => {
  const remembered = await ask('remember', 'Integration tests need the local Postgres on port 5433');
  assert.match(remembered.stream.text, /Remembered/);
  assert.match(remembered.stream.text, /Postgres on port 5433/);
  assert.equal(remembered.stream.buttons[0]?.command, 'engram.forgetMemory');

  const recalled = await ask('recall', 'which port does postgres use for tests');
  assert.match(recalled.stream.text, /5433/);
  assert.ok(recalled.stream.references.some((r) => r instanceof vscode.Uri && r.scheme === 'engram-memory'));
  assert.deepEqual((recalled.result.metadata as { command: string }).command, 'recall');
});

test('@engram speaks like the views: words, kind and age, no ids or scores; a click opens the memory', async () => {
  await ask('remember', 'Release notes are drafted in docs/releases before tagging');
  const { stream } = await ask('recall', 'where are release notes drafted');
  // What the reader sees: the link targets (commands with the id as their argument) are not shown.
  const shown = stream.text.replace(/\]\([^)]*\)/g, ']');
  assert.match(shown, /\[Release notes are drafted in docs\/releases before tagging\] · note · /);
  assert.doesNotMatch(shown, /m_[0-9a-z]{6}/i, 'no memory id');
  assert.doesNotMatch(shown, /\b0\.\d{3}\b/, 'no raw score');
  // References are named by the memory's words, like its tab (not "memory.md").
  const reference = stream.references.find(
    (r): r is vscode.Uri => r instanceof vscode.Uri && r.path.includes('Release notes are drafted'),
  );
  assert.ok(reference, `a reference named by the words: ${stream.references.map(String).join(', ')}`);
  // The chat renders command links only: the one on the memory's words opens its document.
  const link = /\[Release notes[^\]]*\]\(command:engram\.openMemory\?([^ )]+)/.exec(stream.text);
  assert.ok(link?.[1], 'the memory is linked to Open Memory');
  const args = JSON.parse(decodeURIComponent(link[1])) as unknown[];
  await vscode.commands.executeCommand('engram.openMemory', ...args);
  const opened = vscode.window.activeTextEditor?.document;
  assert.equal(opened?.uri.scheme, 'engram-memory');
  assert.match(opened?.getText() ?? '', /drafted in docs\/releases/);
});

test('@engram /why lists the decisions about the current file; /context gives its block', async () => {
  const why = await ask('why', 'password hashing');
  assert.match(why.stream.text, /sha256/);
  const context = await ask('context', 'password hashing');
  assert.match(context.stream.text, /tokens/);
  assert.match(context.stream.text, /sha256/);
});

test('@engram /context with no query primes: where the project stands, as a new agent session gets it', async () => {
  await ask('remember', 'Invoices are rounded half-even, never half-up');
  const { stream, result } = await ask('context', '');
  assert.match(
    stream.text,
    /^Where the project stands \(\d+\/\d+ tokens, what a new agent session starts with\):/,
  );
  assert.match(stream.text, /## Engram: where this project stands/);
  assert.equal((result.metadata as { command: string }).command, 'context');
  assert.ok((result.metadata as { included: number }).included > 0);
});

test('@engram /drift answers whether or not the drift checker is there', async () => {
  const { stream, result } = await ask('drift', '');
  assert.ok(stream.text.length > 0);
  assert.equal(result.errorDetails, undefined);
});

test('a chat failure becomes a short message in the chat, not an exception', async () => {
  const { stream, result } = await ask('remember', 'x'.repeat(300_000));
  assert.match(stream.text, /Engram could not answer/);
  assert.ok(result.errorDetails?.message);
});
