import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { bridgeEnv, startBridge, tempWorkspace } from './bridgeProcess';
import type { ConnectedBridge } from './bridgeProcess';
import { PARITY_CASES } from './compatParityCases';
import type { ParityStep } from './compatParityCases';

/**
 * The official MCP memory server is the oracle: every case in compatParityCases.ts runs against it
 * and against Engram's compat profile, and passes when both answer each step the same way.
 */
const OFFICIAL = path.join(
  path.dirname(
    createRequire(import.meta.filename).resolve('@modelcontextprotocol/server-memory/package.json'),
  ),
  'dist/index.js',
);

interface Graph {
  entities: Array<{ name: string }>;
  relations: unknown[];
}

/** A server under test: a client and a way back to an empty graph. */
interface Subject {
  client: Client;
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** The official server reads its file on every call: removing the file empties the graph. */
async function official(): Promise<Subject> {
  const file = path.join(tempWorkspace(), 'memory.jsonl');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [OFFICIAL],
    env: bridgeEnv({ MEMORY_FILE_PATH: file }),
    stderr: 'ignore',
  });
  const client = new Client({ name: 'parity', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    reset: () => Promise.resolve(rmSync(file, { force: true })),
    close: () => client.close(),
  };
}

/**
 * Engram empties its graph through the tools themselves; when that does not leave an empty graph
 * (a bridge that shows entities nobody created), it starts a fresh bridge on a new workspace.
 */
async function engram(): Promise<Subject> {
  const start = () => startBridge(tempWorkspace(), { args: ['--profile', 'compat'], name: 'parity' });
  let bridge: ConnectedBridge = await start();
  const subject: Subject = {
    client: bridge.client,
    async reset() {
      if (await emptiedThroughTools(bridge.client)) return;
      await bridge.close();
      bridge = await start();
      subject.client = bridge.client;
    },
    close: () => bridge.close(),
  };
  return subject;
}

async function emptiedThroughTools(client: Client): Promise<boolean> {
  const read = async () =>
    ((await client.callTool({ name: 'read_graph', arguments: {} })) as CallToolResult).structuredContent as
      Graph | undefined;
  const graph = await read();
  if (!graph) return false;
  if (graph.relations.length > 0)
    await client.callTool({ name: 'delete_relations', arguments: { relations: graph.relations } });
  if (graph.entities.length > 0)
    await client.callTool({
      name: 'delete_entities',
      arguments: { entityNames: [...new Set(graph.entities.map((e) => e.name))] },
    });
  const left = await read();
  return left !== undefined && left.entities.length === 0 && left.relations.length === 0;
}

/**
 * What a step answered, in a form both servers can be compared on. Normalised where the
 * specification leaves the server free: the server's name and version are not compared; a listed
 * tool is compared on name, title, description, its four behaviour hints (not the optional
 * `annotations.title` display text) and the names of its arguments and required arguments (not
 * the JSON Schema dialect the SDK writes them in); a listed resource only on the knowledge-graph
 * entry (Engram has its own resources besides). Tool results and errors are compared exactly.
 */
async function answer(client: Client, step: ParityStep): Promise<unknown> {
  try {
    if ('tool' in step) {
      const result = (await client.callTool({
        name: step.tool,
        arguments: step.args as Record<string, unknown>,
      })) as CallToolResult;
      return {
        isError: result.isError === true,
        content: result.content,
        structured: result.structuredContent ?? null,
      };
    }
    if ('resource' in step) return (await client.readResource({ uri: step.resource })).contents;
    if (step.list === 'resources') {
      const { resources } = await client.listResources();
      return resources
        .filter((r) => r.uri === 'memory://knowledge-graph')
        .map(({ uri, name, title, description, mimeType }) => ({ uri, name, title, description, mimeType }));
    }
    const { tools } = await client.listTools();
    return tools.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      hints: {
        readOnly: tool.annotations?.readOnlyHint,
        destructive: tool.annotations?.destructiveHint,
        idempotent: tool.annotations?.idempotentHint,
        openWorld: tool.annotations?.openWorldHint,
      },
      arguments: Object.keys(tool.inputSchema.properties ?? {}),
      required: tool.inputSchema.required ?? [],
      results: Object.keys(tool.outputSchema?.properties ?? {}),
    }));
  } catch (error) {
    return { thrown: error instanceof Error ? error.message : String(error) };
  }
}

const FINAL_READ: ParityStep = { tool: 'read_graph', args: {} };

describe('compat profile parity with the official MCP memory server', () => {
  let oracle: Subject;
  let subject: Subject;
  let passed = 0;
  before(async () => {
    [oracle, subject] = await Promise.all([official(), engram()]);
  });
  after(async () => {
    console.log(`parity: ${passed}/${PARITY_CASES.length}`);
    await Promise.all([oracle.close(), subject.close()]);
  });

  for (const parityCase of PARITY_CASES) {
    test(parityCase.name, async () => {
      await Promise.all([oracle.reset(), subject.reset()]);
      const steps = [...parityCase.steps, FINAL_READ];
      for (const [i, step] of steps.entries()) {
        const expected = await answer(oracle.client, step);
        const actual = await answer(subject.client, step);
        assert.deepEqual(
          actual,
          expected,
          `step ${i + 1} of ${steps.length}: ${JSON.stringify(step).slice(0, 200)}`,
        );
      }
      passed++;
    });
  }
});
