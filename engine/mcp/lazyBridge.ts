import type { BridgeEnvironment, BridgeLaunch } from './runBridge';

/**
 * The MCP bridge, loaded when a bridge starts: its module graph (the MCP SDK, its zod schemas and
 * ajv, the HTTP server) is built at load, and every other CLI command (`engram drift` in a new
 * process each time) paid for it. Import runBridge through here, never statically: one static
 * import anywhere in dist/engineCore.js loads the graph with the bundle again.
 */
export async function runBridge(launch: BridgeLaunch, io: BridgeEnvironment): Promise<void> {
  const bridge = await import('./runBridge');
  return bridge.runBridge(launch, io);
}
