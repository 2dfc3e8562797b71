import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { claudeProjectName } from '../../engine/capture/workspaceSources';
import { grammarsDirectory } from '../code/codeWorkspace';
import { openTestHost } from '../support/host';
import { tempDir } from '../support/temp';

function claudeLine(cwd: string): string {
  return `${JSON.stringify({ type: 'user', sessionId: 's', cwd, timestamp: '2026-03-02T09:00:00Z', message: { role: 'user', content: 'hi' } })}\n`;
}

test('captureSources lists this workspace session files by agent, while capture is off, reading none in', async () => {
  const home = tempDir();
  const root = path.join(home, 'shop');
  mkdirSync(root);
  const stores = {
    claudeProjects: path.join(home, '.claude', 'projects'),
    codexSessions: path.join(home, '.codex', 'sessions'),
    geminiTmp: path.join(home, '.gemini', 'tmp'),
  };
  const t = await openTestHost({ code: { root, grammarsDirectory: grammarsDirectory(), runner: 'inline' } });
  try {
    assert.deepEqual(await t.call('captureSources', stores), { agents: [] }, 'no stores at all: none');
    const project = path.join(stores.claudeProjects, claudeProjectName(root));
    mkdirSync(project, { recursive: true });
    const mine = path.join(project, 'a.jsonl');
    writeFileSync(mine, claudeLine(root));
    writeFileSync(path.join(project, 'b.jsonl'), claudeLine('/somewhere/else'));
    writeFileSync(path.join(root, '.aider.chat.history.md'), '# aider chat started at 2026-03-04 14:00:00\n');

    assert.deepEqual(await t.call('captureSources', stores), {
      agents: [
        { agent: 'claude-code', files: [mine] },
        { agent: 'aider', files: [path.join(root, '.aider.chat.history.md')] },
      ],
    });
    const status = await t.call('captureStatus');
    assert.equal(status.enabled, false);
    assert.equal(status.records, 0, 'listing the sources reads nothing into the ledger');
    await assert.rejects(
      t.call('captureSources', { ...stores, geminiTmp: 'tmp' }),
      /must be an absolute path/,
    );
  } finally {
    await t.host.close();
  }
});
