import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { engram } from '../cli/engramCli';
import { tempDir } from '../support/temp';
import { FIXTURES } from './captureDb';

/*
 * GitHub Copilot in VS Code (agent mode) runs the agent hooks of `.github/hooks/*.json`: flat
 * `{ type: 'command', command }` entries per PascalCase event; stdout on exit 0 is read as JSON, a
 * SessionStart hook's context in `hookSpecificOutput.additionalContext` (VS Code's "Agent hooks"
 * documentation and hooks reference). Tested against the file Engram writes: VS Code does not run here.
 */
interface HookFile {
  version?: number;
  hooks?: Record<string, Array<{ type: string; command: string }>>;
}

test('Copilot hooks: .github/hooks/engram.json in VS Code format, JSON context, silent capture, removed whole', async () => {
  const home = tempDir();
  const root = path.join(home, 'work', 'shop');
  mkdirSync(path.join(root, '.git'), { recursive: true });
  const env = { HOME: home, XDG_CONFIG_HOME: '', CLAUDE_CONFIG_DIR: '', CODEX_HOME: '', GEMINI_CLI_HOME: '' };
  const file = path.join(root, '.github', 'hooks', 'engram.json');

  const installed = await engram(root, ['hooks', 'install', '--client', 'copilot'], env);
  assert.equal(installed.code, 0, installed.err);
  assert.match(installed.out, /^hooks SessionStart, Stop in .*\.github\/hooks\/engram\.json: .*agent hooks/);
  await engram(root, ['hooks', 'install', '--client', 'copilot'], env);
  const written = JSON.parse(readFileSync(file, 'utf8')) as HookFile;
  assert.equal(written.version, 1);
  assert.deepEqual(Object.keys(written.hooks ?? {}), ['SessionStart', 'Stop']);
  assert.equal(written.hooks?.['Stop']?.length, 1, 'installing twice leaves one');
  const command = (event: string) => written.hooks?.[event]?.[0]?.command ?? '';
  assert.equal(written.hooks?.['SessionStart']?.[0]?.type, 'command');
  assert.match(
    command('SessionStart'),
    /^node ".*cli\.js" context --prime --hook-client copilot --from-hook$/,
  );
  assert.match(
    command('Stop'),
    /^node ".*cli\.js" capture run --agent copilot --hook-client copilot --from-hook$/,
  );
  const args = (event: string) =>
    command(event)
      .split(' ')
      .slice(2)
      .map((a) => a.replace(/^"|"$/g, ''));

  // A Copilot Chat session of this workspace, where VS Code keeps it.
  const user = path.join(home, '.config', 'Code', 'User');
  const storage = path.join(user, 'workspaceStorage', 'w1');
  mkdirSync(path.join(storage, 'chatSessions'), { recursive: true });
  writeFileSync(path.join(storage, 'workspace.json'), JSON.stringify({ folder: pathToFileURL(root).href }));
  writeFileSync(
    path.join(storage, 'chatSessions', '0b5e7a1c-7c1d-4e8a-9f00-5e55c0ff1ce0.jsonl'),
    readFileSync(path.join(FIXTURES, 'copilot-session.jsonl'), 'utf8'),
  );
  await engram(root, ['capture', 'enable'], env);
  const stop = await engram(root, args('Stop'), env);
  assert.deepEqual(
    [stop.code, stop.out, stop.err],
    [0, '', ''],
    'VS Code reads a hook stdout as JSON: nothing',
  );
  const status = await engram(root, ['--json', 'capture', 'status'], env);
  const sessions = (JSON.parse(status.out) as { sessions: Array<{ agent: string; sessions: number }> })
    .sessions;
  assert.deepEqual(
    sessions.map((s) => [s.agent, s.sessions]),
    [['copilot', 1]],
  );

  await engram(root, ['remember', '--pin', 'Releases are tagged from main'], env);
  const primed = await engram(root, args('SessionStart'), env);
  assert.equal(primed.code, 0, primed.err);
  const output = JSON.parse(primed.out) as {
    hookSpecificOutput: { hookEventName: string; additionalContext: string };
  };
  assert.equal(output.hookSpecificOutput.hookEventName, 'SessionStart');
  assert.match(output.hookSpecificOutput.additionalContext, /^## Engram: where this project stands/);
  assert.match(output.hookSpecificOutput.additionalContext, /Releases are tagged from main/);

  const removed = await engram(root, ['hooks', 'uninstall', '--client', 'copilot'], env);
  assert.match(removed.out, /^removed Engram's SessionStart, Stop hooks from /);
  assert.ok(!existsSync(file), 'the file was Engram’s alone: it is gone');
});

test('Copilot hooks: a hook of the user in the same file stays, and so does the file', async () => {
  const home = tempDir();
  const root = path.join(home, 'shop');
  mkdirSync(path.join(root, '.git'), { recursive: true });
  const env = { HOME: home };
  const file = path.join(root, '.github', 'hooks', 'engram.json');
  mkdirSync(path.dirname(file), { recursive: true });
  const theirs = { type: 'command', command: 'npx prettier --write .' };
  writeFileSync(file, JSON.stringify({ hooks: { PostToolUse: [theirs], Stop: [theirs] } }, null, 2));
  await engram(root, ['hooks', 'install', '--client', 'copilot'], env);
  const installed = JSON.parse(readFileSync(file, 'utf8')) as HookFile;
  assert.deepEqual(installed.hooks?.['Stop']?.[0], theirs);
  assert.equal(installed.hooks?.['Stop']?.length, 2);
  await engram(root, ['hooks', 'uninstall', '--client', 'copilot'], env);
  const left = JSON.parse(readFileSync(file, 'utf8')) as HookFile;
  assert.deepEqual(left.hooks, { PostToolUse: [theirs], Stop: [theirs] });
});
