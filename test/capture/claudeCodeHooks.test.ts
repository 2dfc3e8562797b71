import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
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
