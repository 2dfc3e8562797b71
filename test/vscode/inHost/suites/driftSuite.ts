import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import type { RememberResult } from '../../../../engine/memory/types';
import type { DriftReport } from '../../../../extension/driftReport';
import { engramApi, workspacePath } from '../extensionApi';
import { test } from '../harness';

const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Engram Test', '-c', 'user.email=test@engram.invalid', ...args], {
    cwd: workspacePath(),
    stdio: 'ignore',
  });

let movedMemory = '';

test('Check Drift finds a memory whose file was renamed in git, with the commit, and the views show it', async () => {
  const api = await engramApi();
  assert.ok(api.drift.available, 'this engine has the drift checker');
  const note = await vscode.commands.executeCommand<RememberResult>(
    'engram.rememberNote',
    'The crypto helpers live in src/crypto/hash.ts',
    'fact',
  );
  movedMemory = note.memory.id;
  git('mv', 'src/crypto/hash.ts', 'src/crypto/digest.ts');
  git('commit', '-q', '-m', 'Rename hash.ts to digest.ts');
  await vscode.commands.executeCommand('engram.scanWorkspace');
  const report = await vscode.commands.executeCommand<DriftReport>('engram.checkDrift');
  const finding = report.findings.find((f) => f.memoryId === movedMemory);
  assert.ok(finding, `the renamed file's memory drifted: ${JSON.stringify(report.findings)}`);
  assert.equal(finding.evidence.target, 'src/crypto/digest.ts');
  assert.match(finding.evidence.message ?? '', /Rename hash.ts/);
  assert.ok(api.drift.isStale(movedMemory));
  const semantic = (await api.memories.getChildren()).find(
    (n) => n.type === 'layer' && n.layer === 'semantic',
  );
  const rows = semantic ? await api.memories.getChildren(semantic) : [];
  const row = rows.find((r) => r.type === 'memory' && r.memory.id === movedMemory);
  assert.ok(row);
  assert.match(String(api.memories.getTreeItem(row).description), /^stale/);
});

test('Fix Drift rewrites the moved path in a new version of the memory', async () => {
  const api = await engramApi();
  await vscode.commands.executeCommand('engram.fixDrift', undefined, 'apply');
  const { memory } = await api.engine.call('get', { id: movedMemory });
  assert.match(memory.content, /src\/crypto\/digest\.ts/);
  assert.ok(memory.version > 1, 'the old wording stays in the history');
  assert.equal(api.drift.isStale(movedMemory), false);
});
