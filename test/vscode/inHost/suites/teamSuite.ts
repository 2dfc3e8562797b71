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
/** A second server (teamHost.test.ts), killed by the last test: its URL, token, pid and one memory on it. */
const REPLICA_URL = process.env['ENGRAM_TEST_TEAM_REPLICA_URL'] ?? '';
const REPLICA_TOKEN = process.env['ENGRAM_TEST_TEAM_REPLICA_TOKEN'] ?? '';
const REPLICA_PID = Number(process.env['ENGRAM_TEST_TEAM_REPLICA_PID']);
const REPLICA_NOTE = process.env['ENGRAM_TEST_TEAM_REPLICA_NOTE'] ?? '';
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

test('team: with its server killed, reads come from the replica of the team scope, marked stale', async () => {
  assert.ok(
    REPLICA_URL && REPLICA_TOKEN && REPLICA_PID > 0 && REPLICA_NOTE,
    'teamHost.test.ts passes the second server',
  );
  const api = await engramApi();
  await pointAt(REPLICA_URL);
  await vscode.commands.executeCommand('engram.setTeamToken', REPLICA_TOKEN);
  await teamText(/Team: connected$/);
  // A teammate's memory, on the server only: this window's database never had it.
  const online = await vscode.commands.executeCommand<RecallHit[]>('engram.recall', 'on-call handover');
  assert.equal(online[0]?.memory.content, REPLICA_NOTE);
  assert.equal(await api.engine.staleNote(), undefined, 'the server answered');
  // That answered read took the copy, in the background.
  await (await api.team.router())?.synced();

  process.kill(REPLICA_PID, 'SIGKILL');
  const offline = await vscode.commands.executeCommand<RecallHit[]>('engram.recall', 'on-call handover');
  assert.equal(offline[0]?.memory.content, REPLICA_NOTE, 'answered from the replica, not the local database');
  assert.match(
    (await api.engine.staleNote()) ?? '',
    /did not answer: from the local replica of the team's memories as of \S+, which may be stale\.$/,
  );
  const tool = await vscode.lm.invokeTool('engram_recall', {
    input: { query: 'on-call handover' },
    toolInvocationToken: undefined,
  });
  const told = tool.content
    .map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : ''))
    .join('');
  assert.ok(told.includes(REPLICA_NOTE), told);
  assert.match(told, /which may be stale\.$/, 'the agent is told too');
  await teamText(/Team: offline, reads may be stale \(0 queued\)$/);
  await vscode.commands.executeCommand('engram.clearTeamToken');
  await pointAt('');
});
