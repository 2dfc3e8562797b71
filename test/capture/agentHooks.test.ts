import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parse } from 'jsonc-parser';
import { claudeProjectName } from '../../engine/capture/workspaceSources';
import { engram } from '../cli/engramCli';
import { tempDir } from '../support/temp';
import { FIXTURES, SESSION, SHOP } from './captureDb';

test('hooks install and uninstall: idempotent, other settings and hooks kept, the hook reads the session', async () => {
  const home = tempDir();
  const root = path.join(home, 'shop');
  mkdirSync(path.join(root, '.git'), { recursive: true });
  const env = { HOME: home, CLAUDE_CONFIG_DIR: '', CODEX_HOME: '', GEMINI_CLI_HOME: '' };
  const settings = path.join(root, '.claude', 'settings.local.json');
  const theirs = { matcher: '', hooks: [{ type: 'command', command: 'say done' }] };
  mkdirSync(path.dirname(settings), { recursive: true });
  writeFileSync(
    settings,
    JSON.stringify({ permissions: { allow: ['Bash(npm test)'] }, hooks: { Stop: [theirs] } }, null, 2),
  );
  const read = () =>
    JSON.parse(readFileSync(settings, 'utf8')) as {
      permissions: unknown;
      hooks?: Record<string, Array<{ hooks: Array<{ command: string }> }>>;
    };

  const first = await engram(root, ['hooks', 'install', '--client', 'claude-code'], env);
  assert.equal(first.code, 0, first.err);
  await engram(root, ['hooks', 'install', '--client', 'claude-code'], env);
  const installed = read();
  assert.deepEqual(installed.permissions, { allow: ['Bash(npm test)'] });
  assert.equal(installed.hooks?.['Stop']?.length, 2, 'theirs and one of ours, after two installs');
  assert.deepEqual(installed.hooks?.['Stop']?.[0], theirs);
  const command = installed.hooks?.['SessionEnd']?.[0]?.hooks[0]?.command ?? '';
  assert.match(command, /^node ".*cli\.js" capture run --agent claude-code --from-hook$/);
  const start = installed.hooks?.['SessionStart'];
  assert.equal(start?.length, 1);
  assert.match(start?.[0]?.hooks[0]?.command ?? '', /^node ".*cli\.js" context --prime --from-hook$/);

  // What the hook runs: quiet while capture is off, one line once it reads something.
  const file = path.join(home, '.claude', 'projects', claudeProjectName(root), `${SESSION}.jsonl`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(
    file,
    readFileSync(path.join(FIXTURES, 'claude-session.jsonl'), 'utf8').replaceAll(SHOP, root),
  );
  const hookArgs = ['capture', 'run', '--agent', 'claude-code', '--from-hook'];
  const off = await engram(root, hookArgs, env);
  assert.deepEqual([off.code, off.out, off.err], [0, '', '']);
  await engram(root, ['capture', 'enable'], env);
  assert.match((await engram(root, hookArgs, env)).out, /^\S+Z \+17 records in 1 session/);
  assert.equal((await engram(root, hookArgs, env)).out, '', 'nothing new, nothing said');

  // What the SessionStart hook prints is the primed block, which Claude Code adds to the context.
  const primed = await engram(root, ['context', '--prime', '--from-hook'], env);
  assert.equal(primed.code, 0, primed.err);
  assert.match(primed.out, /^## Engram: where this project stands/);
  assert.match(
    primed.out,
    /### Last sessions\n- \[\S+\] Claude Code session on 2026-03-02 \(branch fix\/dates\)/,
  );

  const removed = await engram(root, ['hooks', 'uninstall', '--client', 'claude-code'], env);
  assert.match(removed.out, /^removed Engram's Stop, SessionStart, SessionEnd hooks from /);
  assert.deepEqual(read(), { permissions: { allow: ['Bash(npm test)'] }, hooks: { Stop: [theirs] } });
  assert.match(
    (await engram(root, ['hooks', 'uninstall', '--client', 'claude-code'], env)).out,
    /^no Engram hook in /,
  );

  writeFileSync(settings, '{ not json');
  const broken = await engram(root, ['hooks', 'install', '--client', 'claude-code'], env);
  assert.equal(broken.code, 1);
  assert.match(
    broken.err,
    /^engram: .*settings\.local\.json is not a JSON object: fix or remove it first\n$/,
  );
  assert.equal(readFileSync(settings, 'utf8'), '{ not json', 'left as it was');
});

test('Gemini CLI hooks: its settings file, the primed block as the JSON context it reads, captures that print nothing', async () => {
  const home = tempDir();
  const root = path.join(home, 'shop');
  mkdirSync(path.join(root, '.git'), { recursive: true });
  const env = { HOME: home, CLAUDE_CONFIG_DIR: '', CODEX_HOME: '', GEMINI_CLI_HOME: '' };
  const settings = path.join(root, '.gemini', 'settings.json');
  mkdirSync(path.dirname(settings), { recursive: true });
  writeFileSync(settings, '{\n  // the user\'s own\n  "theme": "GitHub",\n}\n');

  const installed = await engram(root, ['hooks', 'install', '--client', 'gemini'], env);
  assert.equal(installed.code, 0, installed.err);
  assert.match(
    installed.out,
    /^hooks SessionStart, AfterAgent, SessionEnd in .*\.gemini\/settings\.json: .*keep it out of git/,
  );
  const text = readFileSync(settings, 'utf8');
  assert.match(text, /\/\/ the user's own\n {2}"theme": "GitHub",/, 'comments and settings kept');
  const hooks = (parse(text) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> })
    .hooks;
  const command = (event: string) => hooks[event]?.[0]?.hooks[0]?.command ?? '';
  assert.match(
    command('SessionStart'),
    /^node ".*cli\.js" context --prime --hook-client gemini --from-hook$/,
  );
  assert.match(
    command('AfterAgent'),
    /^node ".*cli\.js" capture run --agent gemini --hook-client gemini --from-hook$/,
  );
  assert.equal(command('SessionEnd'), command('AfterAgent'));

  // A Gemini CLI session of this workspace, where Gemini CLI keeps it.
  const hash = createHash('sha256').update(path.resolve(root)).digest('hex');
  const chats = path.join(home, '.gemini', 'tmp', hash, 'chats');
  mkdirSync(chats, { recursive: true });
  writeFileSync(
    path.join(chats, 'session-2026-03-06T08-00-7c1e9d20.jsonl'),
    readFileSync(path.join(FIXTURES, 'gemini-session.jsonl'), 'utf8').replace('PROJECT_HASH', hash),
  );
  await engram(root, ['capture', 'enable'], env);
  const run = (args: string[]) => engram(root, args.slice(1), env);
  const captured = await run(
    command('AfterAgent')
      .split(' ')
      .slice(1)
      .map((a) => a.replace(/^"|"$/g, '')),
  );
  assert.deepEqual(
    [captured.code, captured.out, captured.err],
    [0, '', ''],
    'Gemini CLI shows plain stdout to the user',
  );

  // SessionStart: the primed block in hookSpecificOutput.additionalContext.
  const primed = await run(
    command('SessionStart')
      .split(' ')
      .slice(1)
      .map((a) => a.replace(/^"|"$/g, '')),
  );
  assert.equal(primed.code, 0, primed.err);
  const output = JSON.parse(primed.out) as {
    hookSpecificOutput: { hookEventName: string; additionalContext: string };
  };
  assert.equal(output.hookSpecificOutput.hookEventName, 'SessionStart');
  assert.match(output.hookSpecificOutput.additionalContext, /^## Engram: where this project stands/);
  assert.match(output.hookSpecificOutput.additionalContext, /Gemini CLI session on 2026-03-06/);

  const removed = await engram(root, ['hooks', 'uninstall', '--client', 'gemini'], env);
  assert.match(removed.out, /^removed Engram's SessionStart, AfterAgent, SessionEnd hooks from /);
  assert.match(readFileSync(settings, 'utf8'), /"theme": "GitHub"/);
  assert.equal((parse(readFileSync(settings, 'utf8')) as { hooks?: unknown }).hooks, undefined);
});

test('Codex hooks: .codex/hooks.json, plain primed context, a Stop capture that prints nothing', async () => {
  const home = tempDir();
  const root = path.join(home, 'shop');
  mkdirSync(path.join(root, '.git'), { recursive: true });
  const env = { HOME: home, CLAUDE_CONFIG_DIR: '', CODEX_HOME: '', GEMINI_CLI_HOME: '' };
  const installed = await engram(root, ['hooks', 'install', '--client', 'codex'], env);
  assert.equal(installed.code, 0, installed.err);
  assert.match(installed.out, /hooks SessionStart, Stop in .*\.codex\/hooks\.json: .*trusted/);
  const file = JSON.parse(readFileSync(path.join(root, '.codex', 'hooks.json'), 'utf8')) as {
    hooks: Record<string, Array<{ hooks: Array<{ type: string; command: string }> }>>;
  };
  assert.deepEqual(Object.keys(file.hooks), ['SessionStart', 'Stop']);
  assert.match(
    file.hooks['Stop']?.[0]?.hooks[0]?.command ?? '',
    /capture run --agent codex --hook-client codex --from-hook$/,
  );
  assert.match(file.hooks['SessionStart']?.[0]?.hooks[0]?.command ?? '', /context --prime --from-hook$/);
  await engram(root, ['capture', 'enable'], env);
  await engram(root, ['remember', '--pin', 'Releases are tagged from main'], env);
  const primed = await engram(root, ['context', '--prime', '--from-hook'], env);
  assert.match(primed.out, /Releases are tagged from main/, 'Codex takes plain stdout as context');
  const stop = await engram(
    root,
    ['capture', 'run', '--agent', 'codex', '--hook-client', 'codex', '--from-hook'],
    env,
  );
  assert.deepEqual([stop.code, stop.out], [0, '']);
  assert.match(
    (await engram(root, ['hooks', 'uninstall', '--client', 'codex'], env)).out,
    /^removed Engram's SessionStart, Stop hooks/,
  );
});
