import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { memoryChatItem } from '../../extension/chat/chatText';
import { engram } from '../cli/engramCli';
import { callTool, tempWorkspace } from '../mcp/bridgeProcess';
import { connectBridge } from '../mcp/inProcessBridge';
import type { InProcessBridge } from '../mcp/inProcessBridge';
import { negativeInput } from '../../engine/memory/negativeKnowledge';
import { openTestHost } from '../support/host';
import { memoryFixture } from '../support/memoryFixture';
import { tempDir } from '../support/temp';

const open: InProcessBridge[] = [];
after(async () => {
  for (const bridge of open) await bridge.close();
});

interface View {
  id: string;
  kind: string;
  layer: string;
  content: string;
  negative?: boolean;
}

describe('negative knowledge in every surface', () => {
  it('engram remember --negative stores it, and recall prints it marked', async () => {
    const dir = tempDir();
    const stored = await engram(dir, [
      'remember',
      '--negative',
      'There is no staging server; deploys go to prod',
    ]);
    assert.equal(stored.code, 0, stored.err);
    assert.match(stored.out, /semantic\/negative {2}NEGATIVE KNOWLEDGE: There is no staging server/);
    await engram(dir, ['remember', 'Deploys run from the release workflow on tags']);
    const recalled = await engram(dir, ['recall', 'staging server']);
    assert.match(recalled.out.split('\n')[0] ?? '', /NEGATIVE KNOWLEDGE: There is no staging server/);
    const json = JSON.parse((await engram(dir, ['--json', 'recall', 'staging server'])).out) as {
      hits: Array<{ memory: { kind: string } }>;
    };
    assert.equal(json.hits[0]?.memory.kind, 'negative');
    const clash = await engram(dir, ['remember', '--negative', '--kind', 'fact', 'No Redis']);
    assert.equal(clash.code, 1);
    assert.match(clash.err, /^engram: a negative memory has kind "negative"; got kind "fact"/);
  });

  it('MCP memory_remember_negative stores it, and memory_recall returns it marked', async () => {
    const bridge = await connectBridge(tempWorkspace(), { name: 'claude-code' });
    open.push(bridge);
    const stored = await callTool<{ memory: View }>(bridge.client, 'memory_remember_negative', {
      content: 'We do not use Redux; state lives in React context',
    });
    assert.deepEqual(
      [stored.memory.kind, stored.memory.layer, stored.memory.negative],
      ['negative', 'semantic', true],
    );
    await callTool(bridge.client, 'memory_remember', { content: 'React components live in src/ui' });
    const result = await bridge.client.callTool({
      name: 'memory_recall',
      arguments: { query: 'redux store' },
    });
    const hits = (result.structuredContent as { hits: Array<{ memory: View }> }).hits;
    assert.equal(hits[0]?.memory.id, stored.memory.id);
    assert.equal(hits[0]?.memory.negative, true);
    const text = (result.content as Array<{ text: string }>)[0]?.text ?? '';
    assert.match(text, /^1\. \[m_\w+\] semantic\/negative: NEGATIVE KNOWLEDGE: We do not use Redux/);
    const plain = hits.find((h) => h.memory.kind !== 'negative');
    if (plain) assert.equal(plain.memory.negative, undefined);

    const why = await bridge.client.getPrompt({ name: 'why', arguments: { target: 'redux' } });
    const prompt = why.messages[0]?.content;
    assert.match(
      prompt?.type === 'text' ? prompt.text : '',
      /\] negative: NEGATIVE KNOWLEDGE: We do not use Redux/,
    );
  });

  it('a pinned negative memory is marked in the block a fresh session starts with', async () => {
    const t = await openTestHost();
    await t.call('remember', {
      ...negativeInput({ content: 'Never run migrations from tests' }),
      pinned: true,
    });
    const block = await t.call('prime', {});
    assert.match(block.text, /\(negative\) NEGATIVE KNOWLEDGE: Never run migrations from tests/);
  });

  it('@engram says what a negative memory is before its words', () => {
    const item = memoryChatItem(memoryFixture({ kind: 'negative', content: 'No GraphQL here' }), Date.now());
    assert.match(item, /· does not exist or must not be done · negative knowledge · /);
    assert.doesNotMatch(memoryChatItem(memoryFixture({ content: 'GraphQL here' }), Date.now()), /negative/);
  });
});
