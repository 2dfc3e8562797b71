import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { tempDir } from '../support/temp';

/** The built bridge: tests run `npm run build` first (scripts/runTests.mjs does). */
export const BRIDGE = path.resolve(import.meta.dirname, '../../dist/mcp.js');

/** A workspace removed when the test process ends (a bridge may outlive the test that made it). */
export function tempWorkspace(): string {
  return tempDir('engram-mcp-', { afterTest: false });
}

/** Dense retrieval is not what these tests check, and the default model costs ~1 s per process. */
export function bridgeEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return { ...env, ENGRAM_EMBEDDING: 'off', ...extra };
}

export interface ConnectedBridge {
  client: Client;
  transport: StdioClientTransport;
  /** The bridge's process id (for SIGKILL in the multi-process test). */
  pid: number | null;
  close(): Promise<void>;
}

/** Starts `node dist/mcp.js` and connects the SDK's own client to it over stdio. */
export async function startBridge(
  workspace: string,
  options: { args?: string[]; env?: Record<string, string>; name?: string; nodeArgs?: string[] } = {},
): Promise<ConnectedBridge> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...(options.nodeArgs ?? []), BRIDGE, '--workspace', workspace, ...(options.args ?? [])],
    env: bridgeEnv(options.env),
    cwd: workspace,
    stderr: 'ignore',
  });
  const client = new Client({ name: options.name ?? 'contract-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, pid: transport.pid, close: () => client.close() };
}

/** Calls a tool and returns its structured content; a tool error fails with its text. */
export async function callTool<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<T> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as T;
}
