/**
 * The one engine bundle (dist/engineCore.js) that the CLI (dist/cli.js), the MCP bridge
 * (dist/mcp.js) and the extension's engine half (dist/extensionEngine.js) require at run time;
 * scripts/build.mjs keeps every import of this module external, so the engine, sql.js, TF.js's
 * loader, the MCP SDK and commander ship once instead of three times. Export only what an entry
 * point needs: anything an entry imports from elsewhere in engine/ is bundled into it again.
 */
export { Engram } from '../engram';
export { METHODS, isMethodName } from '../api/methods';
export { buildCli } from './lazyCli';
export { CommanderError } from 'commander';
export { parseBridgeArguments } from '../mcp/commandLine';
export { runBridge } from '../mcp/lazyBridge';
export { resolveDefaultModelAssets, useLiteAssetsInDirectory } from '../embedding/useLiteAssets';
export type { UseLiteAssets } from '../embedding/useLiteAssets';
export { workerScriptsIn } from '../process/workerScripts';
export { agentStores } from '../capture/workspaceSources';
export { TeamRouter } from '../teamClient/teamRouter';
export { parseTeamUrl } from '../teamClient/teamConnection';
export { queueDirectory } from '../teamClient/writeQueue';
export { replicaDirectory } from '../teamClient/teamReplica';
export { ReplicaThread } from '../teamClient/replicaThread';
