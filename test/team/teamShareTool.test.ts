import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { callTool } from '../mcp/bridgeProcess';
import { connectBridge } from '../mcp/inProcessBridge';
import { teamClones } from './teamClones';

interface Shared {
  outcome: string;
  file: string;
  version: number;
  text: string;
}

test('memory_team_share shows the file first and writes it only with confirm', async () => {
  const [alice] = teamClones({ 'README.md': '# app\n' }, ['alice']);
  const bridge = await connectBridge(alice!.root);
  after(() => bridge.close());
  const remembered = await callTool<{ memory: { id: string } }>(bridge.client, 'memory_remember', {
    content: 'Feature branches are squashed when merged.',
  });
  const id = remembered.memory.id;
  const file = path.join(alice!.root, '.engram', 'team', `${id}.md`);
  const preview = await callTool<Shared>(bridge.client, 'memory_team_share', { id });
  assert.equal(preview.outcome, 'preview');
  assert.match(preview.text, /Feature branches are squashed when merged\./);
  assert.ok(!existsSync(file), 'without confirm nothing is written');
  const written = await callTool<Shared>(bridge.client, 'memory_team_share', { id, confirm: true });
  assert.equal(written.outcome, 'written');
  assert.equal(readFileSync(file, 'utf8'), preview.text);
});
