// The engine-facing half of the extension, bundled apart (dist/extensionEngine.js) and loaded by
// EngineConnection after activation: activate() itself only loads the small dist/extension.js.
// The engine itself is the bundle the CLI and the MCP bridge share (dist/engineCore.js).
export { Engram, METHODS, isMethodName } from '../engine/bin/engineCore';
export { engineOptions, replicaThreadOptions } from './engineOptions';
export { agentStores } from '../engine/bin/engineCore';
export { TeamRouter, parseTeamUrl, queueDirectory, replicaDirectory } from '../engine/bin/engineCore';
export { ReplicaThread } from '../engine/bin/engineCore';
