/** The engine's public surface for hosts (extension, MCP bridge, CLI) and tests. */
export { Engram } from './engram';
export type { OpenEngramOptions } from './engram';
export { EngineDispatcher } from './api/engineDispatcher';
export { METHODS, isMethodName } from './api/methods';
export type { MethodName, MethodParams, MethodResult } from './api/methods';
export type { EngineActivity } from './api/engineActivity';
export { EngramError } from './errors';
export type { EngramErrorCode } from './errors';
export { silentLogger, stderrLogger, systemClock } from './host';
export type { Clock, Logger } from './host';
export {
  findWorkspaceRoot,
  resolveDatabasePath,
  userDataDirectory,
  userDatabasePath,
  workspaceDatabasePath,
} from './paths';
// What a host locates and passes in: worker scripts and the embedding model's files (see workerScripts.ts).
export { workerScriptsIn } from './process/workerScripts';
export type { WorkerScripts } from './process/workerScripts';
export { parseEmbeddingSetting } from './embedding/embeddingSetting';
export { useLiteAssetsInDirectory } from './embedding/useLiteAssets';
export type { EmbeddingProgress } from './vectors/memoryVectors';
export type { ScanProgress } from './code/scanProtocol';
export type { RecallHit } from './retrieval/recall';
export { refreshLauncher } from './mcp/mcpLauncher';
export { DurableDatabase } from './store/durableDatabase';
export * from './memory/types';
export { isNegative, markedContent, NEGATIVE_LABEL, NEGATIVE_PREFIX } from './memory/negativeKnowledge';
export type {
  ClaimReport,
  DriftReport,
  FixAction,
  FixReport,
  MemoryDrift,
  ScanDrift,
} from './drift/driftReport';
export type { ClaimEvidence, CommitEvidence, DriftStatus } from './drift/claimTypes';
export { AGENT_NAMES } from './capture/agentNames';
export type { TeamRouter } from './teamClient/teamRouter';
export type { ReplicaAccess } from './teamClient/heldReplica';
export type { ReplicaThreadOptions } from './teamClient/replicaThread';
export type { TeamStatus } from './teamClient/teamStatus';
// Model-written consolidation summaries: a host with a language model implements Summariser.
export { consolidateWithModel, summaryPrompt } from './lifecycle/summariser';
export type { Summariser, SummaryRequest, WrittenSummary } from './lifecycle/summariser';
