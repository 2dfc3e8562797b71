import assert from 'node:assert/strict';
import { test } from 'node:test';
import type * as vscode from 'vscode';
import {
  PROMPT_STATE_KEY,
  promptText,
  rememberAnswer,
  shouldAsk,
} from '../../extension/capture/capturePrompt';

/** workspaceState as VS Code keeps it, in memory. */
function memento(): vscode.Memento {
  const values = new Map<string, unknown>();
  return {
    keys: () => [...values.keys()],
    get: <T>(key: string, fallback?: T) => (values.has(key) ? (values.get(key) as T) : fallback),
    update: (key: string, value: unknown) => {
      values.set(key, value);
      return Promise.resolve();
    },
  };
}

const NEVER_SWITCHED = { changedAt: null };
const NOW = Date.parse('2026-03-02T09:00:00Z');

test('the capture prompt is asked only with sessions to read and capture never switched', () => {
  const state = memento();
  assert.equal(shouldAsk(state, NEVER_SWITCHED, ['claude-code'], NOW), true);
  assert.equal(shouldAsk(state, NEVER_SWITCHED, [], NOW), false, 'no agent sessions: nothing to ask');
  assert.equal(shouldAsk(state, { changedAt: NOW - 1 }, ['codex'], NOW), false, 'switched (the CLI)');
});

test('"Not now" holds for a week, "Never for this workspace" for good, "Enable" stores nothing here', async () => {
  const later = memento();
  await rememberAnswer(later, 'Not now', NOW);
  assert.equal(shouldAsk(later, NEVER_SWITCHED, ['aider'], NOW + 6 * 24 * 3600_000), false);
  assert.equal(shouldAsk(later, NEVER_SWITCHED, ['aider'], NOW + 8 * 24 * 3600_000), true);
  const never = memento();
  await rememberAnswer(never, 'Never for this workspace', NOW);
  assert.equal(shouldAsk(never, NEVER_SWITCHED, ['aider'], NOW + 365 * 24 * 3600_000), false);
  const enabled = memento();
  await rememberAnswer(enabled, 'Enable', NOW);
  assert.equal(enabled.get(PROMPT_STATE_KEY), undefined, 'the engine keeps it (capture settings)');
});

test('the prompt names the agents found, the database and the command that purges', () => {
  const text = promptText(['claude-code', 'codex']);
  assert.match(text, /\(Claude Code, Codex CLI\)/);
  assert.match(text, /\.engram\/memory\.db/);
  assert.match(text, /Nothing leaves this machine/);
  assert.match(text, /"Engram: Capture Agent Sessions"/);
  assert.match(promptText(['roo-code', 'opencode']), /\(Roo Code, OpenCode\)/, 'by the ids the engine gives');
});
