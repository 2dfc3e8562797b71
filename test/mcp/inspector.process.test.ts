import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { BRIDGE, bridgeEnv, tempWorkspace } from './bridgeProcess';

const run = promisify(execFile);
/** The official inspector (a devDependency) as an outside client: its CLI mode, flags first. */
const INSPECTOR = path.resolve(
  import.meta.dirname,
  '../../node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js',
);

async function inspect(workspace: string, args: string[]): Promise<unknown> {
  const { stdout } = await run(
    process.execPath,
    [INSPECTOR, '--cli', process.execPath, BRIDGE, '--workspace', workspace, ...args],
    {
      env: bridgeEnv(),
      cwd: workspace,
    },
  );
  return JSON.parse(stdout) as unknown;
}

test('the official MCP inspector lists the tools and round-trips a remember and a recall', async () => {
  const workspace = tempWorkspace();
  const listed = (await inspect(workspace, ['--method', 'tools/list'])) as { tools: Array<{ name: string }> };
  assert.ok(listed.tools.some((t) => t.name === 'memory_remember'));
  const remembered = (await inspect(workspace, [
    '--method',
    'tools/call',
    '--tool-name',
    'memory_remember',
    '--tool-arg',
    'content=The inspector can write memories',
  ])) as { structuredContent: { outcome: string; memory: { agent: string } } };
  assert.equal(remembered.structuredContent.outcome, 'added');
  const recalled = (await inspect(workspace, [
    '--method',
    'tools/call',
    '--tool-name',
    'memory_recall',
    '--tool-arg',
    'query=inspector memories',
  ])) as { structuredContent: { hits: Array<{ memory: { content: string } }> } };
  assert.equal(recalled.structuredContent.hits[0]?.memory.content, 'The inspector can write memories');
});

test('the official inspector finds no portability problem in any tool schema of the full profile', async () => {
  const workspace = tempWorkspace();
  const { stdout, stderr } = await run(
    process.execPath,
    [
      INSPECTOR,
      '--cli',
      '--strict',
      process.execPath,
      BRIDGE,
      '--workspace',
      workspace,
      '--method',
      'tools/list',
    ],
    { env: bridgeEnv(), cwd: workspace },
  );
  // --strict prints each finding (tool, path, issue) and then the counts; a clean list prints none.
  assert.ok((JSON.parse(stdout) as { tools: unknown[] }).tools.length > 20);
  assert.doesNotMatch(stderr, /warning|error|portab/i, stderr.slice(0, 3000));
});
