import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { syntheticClaudeSession } from '../../../capture/syntheticSession';
import { CLAUDE_SESSION_ID, claudeLine, claudeToolCall } from '../../support/claudeSession';
import * as vscode from 'vscode';
import { VIEW_SCHEME } from '../../../../extension/memoryDocuments';
import { EXTENSION_ID, engramApi, workspacePath } from '../extensionApi';
import { eventually, figures, test } from '../harness';
import { blockedWindows, longTaskTable, longTasks, longestFor } from '../../support/longTasks';
import { MainThreadProfile, bundleSources, urlOwner } from '../mainThreadProfile';

/** The session file the node:test side wrote before the window opened (captureHost.test.ts). */
const SESSION_FILE = process.env['ENGRAM_TEST_CLAUDE_SESSION'] ?? '';

async function turnsOfSession(): Promise<number | undefined> {
  const api = await engramApi();
  const sessions = await api.engine.call('captureSessions', {});
  return sessions.find((s) => s.id === CLAUDE_SESSION_ID)?.turns;
}

test('a workspace with agent sessions is asked once what to do: what is read, where, how to purge', async () => {
  const api = await engramApi();
  const prompt = await eventually('the first-run prompt', () => api.capture.promptShown);
  assert.match(prompt, /Claude Code/);
  assert.match(prompt, /\.engram\/memory\.db/);
  assert.match(prompt, /Engram: Capture Agent Sessions/);
  assert.equal(api.capture.enabled, false);
  assert.equal(api.capture.statusText, '$(circle-slash) Capture');
  assert.equal((await api.engine.call('captureStatus', {})).records, 0, 'nothing read before the answer');

  // 'Not now' is kept: the next window does not ask again (this week).
  await api.capture.answer('Not now');
  let asked = 0;
  await api.capture.start(() => {
    asked++;
    return Promise.resolve(undefined);
  });
  assert.equal(asked, 0);
});

test('enabled, the window reads the session, then what the agent appends to it', async () => {
  const api = await engramApi();
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  await api.capture.answer('Enable');
  assert.equal(api.capture.enabled, true);
  assert.equal(await eventually('the session read', turnsOfSession), 1);
  assert.ok(api.capture.runner.watched.includes(path.dirname(SESSION_FILE)), 'its folder is watched');
  assert.match(api.capture.statusText, /^\$\(record\) Capture \d/);

  // The periodic read is minutes away: only the watcher can bring this turn in.
  appendFileSync(SESSION_FILE, `${claudeLine(workspacePath(), 2, 'Now add a test for it')}\n`);
  await eventually(
    'the appended turn read',
    async () => ((await turnsOfSession()) === 2 ? true : undefined),
    30_000,
  );
  delay.disable();
  figures['capture: longest main-thread block ms'] = Number((delay.max / 1e6).toFixed(1));
  assert.ok(api.capture.runner.last && api.capture.runner.last.records >= 1);
});

test('the Sessions view lists the session by agent and day and opens its transcript read-only', async () => {
  const api = await engramApi();
  const [agent, ...others] = await api.sessions.getChildren();
  assert.equal(others.length, 0);
  assert.equal(agent?.type, 'agent');
  assert.equal(api.sessions.getTreeItem(agent).label, 'Claude Code');
  const [day] = await api.sessions.getChildren(agent);
  assert.ok(day);
  assert.match(api.sessions.getTreeItem(day).label as string, /^\d{4}-\d\d-\d\d$/);
  const [session] = await api.sessions.getChildren(day);
  assert.ok(session);
  const item = api.sessions.getTreeItem(session);
  assert.equal(item.label, 'Add a login rate limit');
  assert.equal(item.description, '2 turns · 0 files');
  assert.deepEqual(item.command?.arguments, [CLAUDE_SESSION_ID]);
  await vscode.commands.executeCommand(item.command.command, CLAUDE_SESSION_ID);
  const doc = vscode.window.activeTextEditor?.document;
  assert.equal(doc?.uri.scheme, VIEW_SCHEME, 'a generated, read-only document');
  assert.match(doc.getText(), /^# Claude Code session 7d1e0c2a/);
  assert.match(doc.getText(), /## user[^\n]*\n\nNow add a test for it/);
  // The Timeline opens it beside its panel, leaving the focus there.
  await vscode.commands.executeCommand(item.command.command, CLAUDE_SESSION_ID, { beside: true });
  const beside = vscode.window.visibleTextEditors.find(
    (e) => e.document.uri.toString() === doc.uri.toString() && e.viewColumn === vscode.ViewColumn.Two,
  );
  assert.ok(beside, 'the transcript is shown in the column beside');
});

test('a 1,000-turn session appears in the watched folder: read in slices, the host thread kept', async () => {
  const api = await engramApi();
  const file = path.join(path.dirname(SESSION_FILE), 'long-session.jsonl');
  // Made before the measure starts: building 3 MB of JSON is this test's work, not the read's.
  const transcript = syntheticClaudeSession(1000, workspacePath(), 'long-session');
  // The transcript opened above activates VS Code's Markdown extension, whose loading blocked this
  // thread for 105-117 ms during the read (CPU profiles of this test): not the read's time.
  // So does the JSON extension's (with configuration-editing, 74 ms of this thread at load 2 in a
  // profile of this test), which the new .jsonl file wakes.
  for (const id of [
    'vscode.markdown-language-features',
    'vscode.json-language-features',
    'vscode.configuration-editing',
  ])
    await vscode.extensions.getExtension(id)?.activate();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  // A CPU profile of the same time says whose code each long turn ran (the target is 50 ms).
  const profile = await MainThreadProfile.start();
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const started = Date.now();
  writeFileSync(file, transcript);
  await eventually(
    'the long session read',
    async () => {
      const sessions = await api.engine.call('captureSessions', {});
      return sessions.some((s) => s.id === 'long-session' && s.turns >= 2000) || undefined;
    },
    120_000,
  );
  delay.disable();
  const { profile: cpu, beats } = await profile.stop();
  figures['capture 1,000 turns: ms from write to read'] = Date.now() - started;
  figures['capture 1,000 turns: longest main-thread block ms'] = Number((delay.max / 1e6).toFixed(1));
  const extensionPath = vscode.extensions.getExtension(EXTENSION_ID)?.extensionPath ?? '';
  const tasks = longTasks(cpu, blockedWindows(beats, 20), urlOwner(extensionPath), bundleSources());
  figures['capture 1,000 turns: longest Engram time in one turn ms'] = longestFor(tasks, 'engram');
  figures['capture 1,000 turns: tasks over 50 ms (owner, CPU)'] = tasks
    .filter((t) => t.ms > 50)
    .map((t) => `${t.ms} ${t.owner} (CPU ${t.cpuMs ?? '?'})`)
    .join(', ');
  const results = process.env['ENGRAM_VSCODE_RESULTS'];
  if (results)
    writeFileSync(
      path.join(path.dirname(results), 'capture-long-tasks.md'),
      `# Extension-host main thread: turns of 20 ms or more while a 1,000-turn session is read\n\n${longTaskTable(tasks)}\n`,
    );
});

test('a session that wrote a file unfolds into the commit that carries it, the file and its commands', async () => {
  const api = await engramApi();
  const root = workspacePath();
  const file = path.join(root, 'src', 'rateLimit.ts');
  const content = 'export const LIMIT = 5;\nexport const allow = (n: number) => n < LIMIT;\n';
  // Committed first, as a developer would after the agent's turn; the run that reads the turn links it.
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Engram Test', '-c', 'user.email=test@engram.invalid', ...args], {
      cwd: root,
    });
  git('add', 'src/rateLimit.ts');
  git('commit', '-q', '-m', 'Add the login rate limit');
  const sha = git('rev-parse', 'HEAD').toString().trim();
  // Today's turn of the session (started months ago): its commits are looked for up to its last record.
  const now = Date.now();
  appendFileSync(
    SESSION_FILE,
    [
      claudeToolCall(root, 10, 'Write', { file_path: file, content }, { error: false, text: 'ok' }, now),
      claudeToolCall(
        root,
        12,
        'Bash',
        { command: 'npm test' },
        { error: true, text: 'Exit code 1\nFAIL' },
        now,
      ),
      claudeToolCall(root, 14, 'Bash', { command: 'npm test' }, { error: false, text: 'Exit code 0' }, now),
    ].join('\n') + '\n',
  );
  const detail = await eventually(
    'the session linked to its commit',
    async () => {
      const d = await api.engine.call('captureSessionDetail', { session: CLAUDE_SESSION_ID });
      return d.commits.length > 0 ? d : undefined;
    },
    30_000,
  );
  assert.equal(detail.commits[0]?.sha, sha);

  api.sessions.refresh();
  const [agent] = await api.sessions.getChildren();
  const [day] = await api.sessions.getChildren(agent);
  const sessions = await api.sessions.getChildren(day);
  const session = sessions.find((n) => n.type === 'session' && n.session.id === CLAUDE_SESSION_ID);
  assert.ok(session);
  assert.equal(api.sessions.getTreeItem(session).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
  const groups = await api.sessions.getChildren(session);
  assert.deepEqual(
    groups.map((g) => [api.sessions.getTreeItem(g).label, api.sessions.getTreeItem(g).description]),
    [
      ['Commits', '1'],
      ['Files changed', '1'],
      ['Commands', '2 · 1 failed'],
    ],
  );
  const [commits, files, ran] = groups;
  assert.ok(commits && files && ran);
  const [commit] = await api.sessions.getChildren(commits);
  assert.ok(commit);
  const commitItem = api.sessions.getTreeItem(commit);
  assert.equal(commitItem.label, 'Add the login rate limit');
  assert.match(commitItem.description as string, new RegExp(`^${sha.slice(0, 7)} · 2 lines of the session$`));
  const [fileNode] = await api.sessions.getChildren(files);
  assert.ok(fileNode);
  const open = api.sessions.getTreeItem(fileNode).command;
  assert.equal(open?.command, 'vscode.open');
  await vscode.commands.executeCommand('vscode.open', open.arguments?.[0] as vscode.Uri);
  assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, file, 'the file opens');
  const commands = (await api.sessions.getChildren(ran)).map((c) => api.sessions.getTreeItem(c).description);
  assert.deepEqual(commands, ['exit 1', 'exit 0']);
});

test('turned off, the window stops watching and reads nothing more', async () => {
  const api = await engramApi();
  const turns = await turnsOfSession();
  await api.capture.setEnabled(false);
  assert.equal(api.capture.runner.active, false);
  assert.deepEqual(api.capture.runner.watched, []);
  assert.equal(api.capture.statusText, '$(circle-slash) Capture');
  appendFileSync(SESSION_FILE, `${claudeLine(workspacePath(), 3, 'And a changelog line')}\n`);
  await new Promise((resolve) => setTimeout(resolve, 4000));
  assert.equal(await turnsOfSession(), turns);
});
