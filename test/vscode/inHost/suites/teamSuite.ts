import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RememberResult } from '../../../../engine/memory/types';
import type { RecallHit } from '../../../../engine/retrieval/recall';
import { engramApi } from '../extensionApi';
import { eventually, test } from '../harness';

/** The team server the node:test side started, a token for it, and a port nothing listens on (teamHost.test.ts). */
const URL_ = process.env['ENGRAM_TEST_TEAM_URL'] ?? '';
const TOKEN = process.env['ENGRAM_TEST_TEAM_TOKEN'] ?? '';
const DEAD_URL = process.env['ENGRAM_TEST_TEAM_DEAD_URL'] ?? '';
/** What the node:test side looks for on the server after the run. */
const TEAM_NOTE = 'The team deploys from main only, through the release workflow';

async function pointAt(url: string): Promise<void> {
  await vscode.workspace
    .getConfiguration('engram')
    .update('team.url', url, vscode.ConfigurationTarget.Global);
}

async function teamText(pattern: RegExp): Promise<string> {
  const api = await engramApi();
  return eventually(`the team item to match ${pattern}`, () =>
    pattern.test(api.teamStatus.text) ? api.teamStatus.text : undefined,
  );
}

test('team: a URL without a token says so in the item, and calls stay local', async () => {
  assert.ok(URL_ && TOKEN && DEAD_URL, 'teamHost.test.ts passes the server URL and a token');
  await pointAt(DEAD_URL);
  await teamText(/Team: no token$/);
});

test('team: while the server does not answer, a remember is queued and the item says offline (1 queued)', async () => {
  const api = await engramApi();
  await vscode.commands.executeCommand('engram.setTeamToken', TOKEN);
  // Queued, not remembered: the command fails with the queue's line (shown as its error message).
  const result = await vscode.commands.executeCommand(
    'engram.rememberNote',
    'Written while the server was down',
    'fact',
  );
  assert.equal(result, undefined);
  await teamText(/Team: offline \(1 queued\)$/);
  assert.equal(api.teamStatus.state, 'offline');
});

test('team: a token the server refuses shows Team: token refused', async () => {
  await pointAt(URL_);
  await vscode.commands.executeCommand('engram.setTeamToken', 'engram_not-a-token');
  await teamText(/Team: token refused$/);
  // Told once, in one line naming the command that fixes it; later checks do not repeat it.
  const api = await engramApi();
  await api.teamStatus.refresh();
  await api.teamStatus.refresh();
  assert.equal(api.teamStatus.refusalsTold.length, 1, api.teamStatus.refusalsTold.join('\n'));
  const [told] = api.teamStatus.refusalsTold;
  assert.match(told ?? '', /refused the token .*run "Engram: Set Team Server Token"; queued 1$/);
  assert.doesNotMatch(told ?? '', /\n/);
});

test('team: with the right token the item says connected and a remember reaches the server', async () => {
  await vscode.commands.executeCommand('engram.setTeamToken', TOKEN);
  await teamText(/Team: connected$/);
  const result = await vscode.commands.executeCommand<RememberResult>(
    'engram.rememberNote',
    TEAM_NOTE,
    'decision',
  );
  assert.equal(result.outcome, 'added');
  // The agent of a write on the server is the token's user, whatever the window sent.
  assert.equal(result.memory.agent, 'alice');
  const hits = await vscode.commands.executeCommand<RecallHit[]>('engram.recall', 'how does the team deploy');
  assert.equal(hits[0]?.memory.id, result.memory.id);
  await teamText(/Team: connected$/);
});

test('team: Clear Team Server Token leaves the item at no token', async () => {
  await vscode.commands.executeCommand('engram.clearTeamToken');
  await teamText(/Team: no token$/);
  await pointAt('');
});
