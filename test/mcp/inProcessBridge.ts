import { createRequire } from 'node:module';
import os from 'node:os';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CreateMessageRequest, CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import { resolveDefaultModelAssets } from '../../engine/embedding/useLiteAssets';
import { parseBridgeArguments } from '../../engine/mcp/commandLine';
import { createBridgeServer } from '../../engine/mcp/connectionServer';
import { bridgeRuntime } from '../../engine/mcp/runBridge';
import { sourceWorkerScripts } from '../../engine/process/workerScripts';
import { grammarsDirectory } from '../code/codeWorkspace';
import { SQL_WASM_PATH } from '../support/temp';
import { bridgeEnv } from './bridgeProcess';

const require = createRequire(import.meta.url);

export interface InProcessBridge {
  client: Client;
  close(): Promise<void>;
}

/**
 * The bridge's own server (tools, resources, prompts, one engine) served in this process and
 * connected to the SDK's client through the SDK's linked in-memory transport: the same launch
 * options as `dist/mcp.js` and the same tool code, without a process per test. What only a
 * process shows (stdio framing, exit, two processes on one database) stays with startBridge.
 */
export async function connectBridge(
  workspace: string,
  options: {
    args?: string[];
    env?: Record<string, string>;
    name?: string;
    /** Declares the `sampling` capability and answers the bridge's `sampling/createMessage` with this. */
    sampling?: (request: CreateMessageRequest) => Promise<CreateMessageResult>;
  } = {},
): Promise<InProcessBridge> {
  const launch = parseBridgeArguments(['--workspace', workspace, ...(options.args ?? [])]);
  const runtime = bridgeRuntime(launch, {
    cwd: workspace,
    env: bridgeEnv(options.env),
    home: os.homedir(),
    platform: process.platform,
    sqlWasmPath: SQL_WASM_PATH,
    workers: sourceWorkerScripts(),
    grammarsDirectory: grammarsDirectory(),
    useLiteAssets: () => resolveDefaultModelAssets(require.resolve),
  });
  const server = createBridgeServer(runtime);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client(
    { name: options.name ?? 'contract-test', version: '1.0.0' },
    options.sampling ? { capabilities: { sampling: {} } } : {},
  );
  const sampling = options.sampling;
  if (sampling) client.setRequestHandler(CreateMessageRequestSchema, (request) => sampling(request));
  await client.connect(clientSide);
  return {
    client,
    async close() {
      await client.close();
      await server.close();
      await runtime.close();
    },
  };
}
