/** The engine's public surface for hosts (extension, MCP bridge, CLI) and tests. */
export { Engram } from './engram';
export type { OpenEngramOptions } from './engram';
export { EngineDispatcher } from './api/engineDispatcher';
export { METHODS, isMethodName } from './api/methods';
export type { MethodName, MethodResult } from './api/methods';
export { EngramError } from './errors';
export type { EngramErrorCode } from './errors';
export { silentLogger, stderrLogger, systemClock } from './host';
export type { Clock, Logger } from './host';
export { findWorkspaceRoot, resolveDatabasePath, userDatabasePath, workspaceDatabasePath } from './paths';
export { DurableDatabase } from './store/durableDatabase';
export * from './memory/types';
export type {
  ClaimReport,
  DriftReport,
  FixAction,
  FixReport,
  MemoryDrift,
  ScanDrift,
} from './drift/driftReport';
export type { ClaimEvidence, CommitEvidence, DriftStatus } from './drift/claimTypes';
