import path from 'node:path';
import { test } from 'node:test';
import {
  assertNoSecrets,
  assertRedacted,
  FAKE_SECRETS,
  filesUnder,
  TAG_SECRETS,
} from '../support/fakeSecrets';
import { MAX_BUDGET } from '../../engine/mcp/budget';
import { openTestHost } from '../support/host';
import { callTool, tempWorkspace } from './bridgeProcess';
import { connectBridge } from './inProcessBridge';

test('the MCP bridge stores no secret: remember (tags, conflict key), invalidate, create_entities, add_observations, create_relations', async () => {
  const workspace = tempWorkspace();
  const bridge = await connectBridge(workspace, { name: 'redaction-test' });
  const shown: Array<[string, string]> = [];
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await callTool(bridge.client, name, args);
    shown.push([name, JSON.stringify(result)]);
    return result;
  };
  try {
    for (const [i, s] of FAKE_SECRETS.entries()) {
      const { memory } = (await call('memory_remember', {
        content: `note ${i} about the deploy`,
        tags: TAG_SECRETS.includes(s) ? ['ops', s.text] : ['ops'],
        conflictKey: s.text,
      })) as { memory: { id: string } };
      await call('memory_invalidate', { id: memory.id, reason: `rotated ${s.text}` });
    }
    await call('create_entities', {
      entities: FAKE_SECRETS.map((s) => ({
        name: s.text,
        // The type becomes the tag of its observations: a tag holds 64 characters.
        entityType: TAG_SECRETS.includes(s) ? s.text : 'credential',
        observations: [`holds ${s.text}`],
      })),
    });
    await call('create_entities', {
      entities: [{ name: 'Billing', entityType: 'service', observations: [] }],
    });
    await call('add_observations', {
      observations: [{ entityName: 'Billing', contents: FAKE_SECRETS.map((s) => `billing uses ${s.text}`) }],
    });
    await call('create_relations', {
      relations: FAKE_SECRETS.map((s) => ({
        from: s.text,
        to: 'Billing',
        relationType: `signs with ${s.text}`,
      })),
    });

    await call('memory_list', { status: 'all', limit: 500, budget: MAX_BUDGET });
    await call('memory_recall', { query: 'deploy billing key token password' });
    await call('memory_entities', {});
    await call('read_graph', {});
    await call('open_nodes', { names: FAKE_SECRETS.map((s) => s.text) });
    await call('memory_export', { format: 'jsonl', budget: MAX_BUDGET });
    await call('memory_export', { format: 'md', budget: MAX_BUDGET });
  } finally {
    await bridge.close();
  }
  const store = path.join(workspace, '.engram');
  const journaled = filesUnder(store);
  const t = await openTestHost({ dbPath: path.join(store, 'memory.db') });
  await t.host.store.db.snapshot();
  await t.host.close();

  assertNoSecrets([...shown, ...journaled, ...filesUnder(store)]);
  assertRedacted(shown);
});
