import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { engramApi, workspacePath } from '../extensionApi';
import { test } from '../harness';

const MCP_MEMORY = [
  {
    type: 'entity',
    name: 'Release',
    entityType: 'process',
    observations: ['Releases are cut from the release branch every Tuesday'],
  },
  { type: 'relation', from: 'Release', to: 'CI', relationType: 'requires' },
  { type: 'entity', name: 'CI', entityType: 'tool', observations: ['CI runs on every pull request'] },
]
  .map((r) => JSON.stringify(r))
  .join('\n');

test('Export writes Engram JSONL and Import reads it back; MCP memory files are recognised', async () => {
  const api = await engramApi();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'engram-exchange-'));
  const exported = vscode.Uri.file(path.join(dir, 'export.jsonl'));
  await vscode.commands.executeCommand('engram.exportMemories', exported);
  const firstLine = readFileSync(exported.fsPath, 'utf8').split('\n')[0] ?? '';
  assert.match(firstLine, /"_format"/);
  const before = (await api.engine.call('stats', {})).memories;
  // Importing our own export again changes nothing (the import is idempotent).
  const again = await vscode.commands.executeCommand<{ summary: string }>('engram.importMemories', exported);
  assert.equal((await api.engine.call('stats', {})).memories, before);
  // The user is told what happened, in counts.
  assert.match(again.summary, /^0 imported, [1-9]\d* skipped \(already here\), 0 failed/);
  const mcpFile = path.join(dir, 'memory.jsonl');
  writeFileSync(mcpFile, MCP_MEMORY);
  const result = await vscode.commands.executeCommand<{ from: string; summary: string }>(
    'engram.importMemories',
    vscode.Uri.file(mcpFile),
  );
  assert.equal(result.from, 'mcp-memory');
  assert.match(result.summary, /^2 imported, 0 skipped \(already here\), 0 failed/);
  const hits = (await api.engine.call('recall', { query: 'when are releases cut' })).hits;
  assert.match(hits[0]?.memory.content ?? '', /Tuesday/);
});

test('Configure MCP for Claude Code writes a shareable .mcp.json and a launcher that starts this bridge', async () => {
  await engramApi();
  // The launcher lives in the user's home: this test leaves it as it found it.
  const launcher = path.join(os.homedir(), '.config', 'engram', 'mcp.cjs');
  const before = existsSync(launcher) ? readFileSync(launcher, 'utf8') : undefined;
  try {
    await vscode.commands.executeCommand('engram.configureMcp', 'claude-code');
    const text = readFileSync(path.join(workspacePath(), '.mcp.json'), 'utf8');
    const config = JSON.parse(text) as { mcpServers: { engram: { command: string; args: string[] } } };
    assert.deepEqual(config.mcpServers.engram.args, ['${HOME}/.config/engram/mcp.cjs']);
    assert.ok(!text.includes(workspacePath()), 'no absolute path in a file teammates share');
    assert.match(readFileSync(launcher, 'utf8'), /dist[\\/]+mcp\.js/);
  } finally {
    if (before === undefined) rmSync(launcher, { force: true });
    else writeFileSync(launcher, before);
  }
});
