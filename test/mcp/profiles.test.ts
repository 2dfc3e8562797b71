import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { tempWorkspace } from './bridgeProcess';
import { connectBridge } from './inProcessBridge';
import type { InProcessBridge } from './inProcessBridge';

const COMPAT = [
  'create_entities',
  'create_relations',
  'add_observations',
  'delete_entities',
  'delete_observations',
  'delete_relations',
  'read_graph',
  'search_nodes',
  'open_nodes',
];
const open: InProcessBridge[] = [];
after(async () => {
  for (const bridge of open) await bridge.close();
});

async function toolNames(args: string[], env: Record<string, string> = {}) {
  const bridge = await connectBridge(tempWorkspace(), { args, env });
  open.push(bridge);
  return (await bridge.client.listTools()).tools;
}

test('the compat profile offers exactly the nine tools of the official memory server', async () => {
  const tools = await toolNames(['--profile', 'compat']);
  assert.deepEqual(tools.map((t) => t.name).sort(), [...COMPAT].sort());
});

test('ENGRAM_MCP_PROFILE chooses the core profile: a few memory tools, no compat tools', async () => {
  const names = (await toolNames([], { ENGRAM_MCP_PROFILE: 'core' })).map((t) => t.name);
  assert.deepEqual(names.sort(), [
    'memory_context',
    'memory_edit',
    'memory_forget',
    'memory_get',
    'memory_invalidate',
    'memory_list',
    'memory_recall',
    'memory_remember',
  ]);
});

const CODE_AND_DRIFT = [
  'code_scan',
  'code_symbols',
  'code_files',
  'code_locate',
  'code_map',
  'drift_check',
  'drift_fix',
];

test('the full profile has every tool, each with input and output schemas and honest hints', async () => {
  const tools = await toolNames([]);
  const byName = new Map(tools.map((t) => [t.name, t]));
  for (const name of [...COMPAT, ...CODE_AND_DRIFT]) assert.ok(byName.has(name), name);
  assert.equal(tools.length, 42);
  for (const tool of tools) {
    assert.equal(tool.inputSchema.type, 'object', tool.name);
    assert.equal(tool.outputSchema?.type, 'object', tool.name);
    assert.equal(typeof tool.annotations?.readOnlyHint, 'boolean', tool.name);
  }
  assert.equal(byName.get('memory_recall')?.annotations?.readOnlyHint, true);
  assert.equal(byName.get('memory_skills')?.annotations?.readOnlyHint, true);
  assert.equal(byName.get('memory_context_levels')?.annotations?.readOnlyHint, true);
  assert.equal(byName.get('memory_forget')?.annotations?.destructiveHint, true);
  assert.equal(byName.get('memory_remember')?.annotations?.readOnlyHint, false);
  assert.equal(byName.get('memory_remember_negative')?.annotations?.readOnlyHint, false);
  assert.equal(byName.get('memory_pin')?.annotations?.idempotentHint, true);
  assert.equal(byName.get('delete_relations')?.annotations?.destructiveHint, true);
  assert.equal(byName.get('code_map')?.annotations?.readOnlyHint, true);
  assert.equal(byName.get('code_locate')?.annotations?.readOnlyHint, true);
  assert.equal(byName.get('code_scan')?.annotations?.readOnlyHint, false);
  assert.equal(byName.get('memory_team_share')?.annotations?.readOnlyHint, false);
  assert.equal(byName.get('drift_check')?.annotations?.readOnlyHint, false);
  assert.equal(byName.get('drift_fix')?.annotations?.destructiveHint, true);
});
