import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { engramProcess } from '../cli/engramCli';
import { tempDir } from '../support/temp';

// Spawned: the scripts run the built CLI (dist/cli.js), as Cline would.
test('Cline hooks: executable scripts in .clinerules/hooks that answer in its JSON; a script of the user is never overwritten', () => {
  const home = tempDir();
  const root = path.join(home, 'shop');
  mkdirSync(path.join(root, '.git'), { recursive: true });
  const env = { HOME: home, CLAUDE_CONFIG_DIR: '', CODEX_HOME: '', GEMINI_CLI_HOME: '' };
  const hooks = path.join(root, '.clinerules', 'hooks');
  mkdirSync(hooks, { recursive: true });
  writeFileSync(path.join(hooks, 'TaskStart'), '#!/bin/sh\necho \'{"cancel": false}\'\n');

  const refused = engramProcess(root, ['hooks', 'install', '--client', 'cline'], env);
  assert.equal(refused.code, 1);
  assert.match(
    refused.err,
    /^engram: .*TaskStart is not Engram's hook: merge it by hand or move it first\n$/,
  );
  assert.equal(existsSync(path.join(hooks, 'TaskComplete')), false, 'nothing written');

  rmSync(path.join(hooks, 'TaskStart'));
  const installed = engramProcess(root, ['hooks', 'install', '--client', 'cline'], env);
  assert.equal(installed.code, 0, installed.err);
  assert.match(installed.out, /^hooks TaskStart, TaskComplete, TaskCancel in .*\.clinerules\/hooks: /);
  engramProcess(root, ['hooks', 'install', '--client', 'cline'], env);
  for (const hook of ['TaskStart', 'TaskComplete', 'TaskCancel']) {
    assert.equal(statSync(path.join(hooks, hook)).mode & 0o111, 0o111, `${hook} is executable`);
  }

  // Cline runs the script with the event on stdin; run it the same way.
  engramProcess(root, ['remember', '--pin', 'Releases are tagged from main'], env);
  const runHook = (hook: string) =>
    execFileSync(path.join(hooks, hook), {
      cwd: root,
      input: JSON.stringify({ hookName: hook, taskId: 't-1', workspaceRoots: [root] }),
      env: { ...process.env, ...env },
    }).toString();
  const start = JSON.parse(runHook('TaskStart')) as { cancel: boolean; contextModification: string };
  assert.equal(start.cancel, false);
  assert.match(
    start.contextModification,
    /^## Engram: where this project stands[\s\S]*Releases are tagged from main/,
  );
  assert.deepEqual(JSON.parse(runHook('TaskComplete')), { cancel: false });

  writeFileSync(path.join(hooks, 'PreToolUse'), '#!/bin/sh\necho \'{"cancel": false}\'\n');
  const removed = engramProcess(root, ['hooks', 'uninstall', '--client', 'cline'], env);
  assert.match(removed.out, /^removed Engram's TaskStart, TaskComplete, TaskCancel hooks from /);
  assert.deepEqual(readdirSync(hooks), ['PreToolUse'], "the user's own hook is left");
});
