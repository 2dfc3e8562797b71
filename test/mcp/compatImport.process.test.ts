import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { bridgeEnv, startBridge, tempWorkspace } from './bridgeProcess';

const OFFICIAL = path.join(
  path.dirname(
    createRequire(import.meta.filename).resolve('@modelcontextprotocol/server-memory/package.json'),
  ),
  'dist/index.js',
);
const CLI = path.resolve(import.meta.dirname, '../../dist/cli.js');

/** A graph with what a plain import would get wrong: repeats, empty and unicode names, dangling relations, deletes. */
const WRITES: Array<[string, Record<string, unknown>]> = [
  [
    'create_entities',
    {
      entities: [
        { name: 'Alice', entityType: 'person', observations: ['works at Acme Corp', 'likes programming'] },
        { name: 'Bob', entityType: 'person', observations: ['works at Acme Corp'] },
        { name: 'Twin', entityType: 'a', observations: ['one', 'one'] },
        { name: 'Twin', entityType: 'b', observations: [] },
        { name: '', entityType: '', observations: ['line1\nline2', 'say "hi"'] },
        { name: 'Ångström', entityType: 'unité', observations: ['10⁻¹⁰ m', '🦊'] },
        { name: 'S3', entityType: 'service', observations: ['object storage'] },
      ],
    },
  ],
  [
    'create_relations',
    {
      relations: [
        { from: 'Alice', to: 'Acme Corp', relationType: 'works_at' },
        { from: 'Alice', to: 'Bob', relationType: 'knows' },
        { from: 'Ghost', to: 'House', relationType: 'haunts' },
        { from: 'Bob', to: 'Alice', relationType: 'knows' },
      ],
    },
  ],
  ['add_observations', { observations: [{ entityName: 'Bob', contents: ['plays chess', 'plays chess'] }] }],
  ['delete_observations', { deletions: [{ entityName: 'Alice', observations: ['likes programming'] }] }],
  ['create_entities', { entities: [{ name: 'Acme Corp', entityType: 'company', observations: [] }] }],
  ['delete_relations', { relations: [{ from: 'Bob', to: 'Alice', relationType: 'knows' }] }],
];

test('a memory.jsonl written by the official server imports into the same graph, once', async () => {
  const file = path.join(tempWorkspace(), 'memory.jsonl');
  const official = new Client({ name: 'import-test', version: '1.0.0' });
  await official.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [OFFICIAL],
      env: bridgeEnv({ MEMORY_FILE_PATH: file }),
      stderr: 'ignore',
    }),
  );
  let expected: unknown;
  try {
    for (const [name, args] of WRITES) {
      const result = await official.callTool({ name, arguments: args });
      assert.notEqual(result.isError, true, name);
    }
    expected = await official.callTool({ name: 'read_graph', arguments: {} });
  } finally {
    await official.close();
  }

  const workspace = tempWorkspace();
  const importFile = () => {
    const run = spawnSync(
      process.execPath,
      [CLI, '--workspace', workspace, 'import', file, '--from', 'mcp-memory'],
      { env: bridgeEnv(), encoding: 'utf8' },
    );
    assert.equal(run.status, 0, run.stderr);
  };
  importFile();
  importFile(); // A second import of the same file adds nothing.
  const bridge = await startBridge(workspace, { args: ['--profile', 'compat'] });
  try {
    assert.deepEqual(await bridge.client.callTool({ name: 'read_graph', arguments: {} }), expected);
  } finally {
    await bridge.close();
  }
});
