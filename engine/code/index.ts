/**
 * The code scanner and code index. Entry points:
 * - `codeIndexMigration(version)`: the tables, for the engine's migration list;
 * - `scanWorkspace(options)`: an incremental scan into the index (worker thread or inline);
 * - `readFileIndex` + `deriveFileMemories`: the codebase-layer memory drafts of a file;
 * - `tokenCost` / `sourceTokens`: what those memories cost against the source.
 */
export { codeIndexMigration } from './schema';
export { scanWorkspace } from './scanWorkspace';
export type { ScanReport, ScanWorkspaceOptions } from './scanWorkspace';
export type { ScanWorkerScript } from './scanInWorker';
export { runScan } from './runScan';
export type { KnownFile, ScanEvent, ScanJob, ScanProgress, ScanSummary } from './scanProtocol';
export type { CodeIndexStore } from './codeIndexWriter';
export { readFileIndex, readReferences } from './codeIndexReader';
export type { FileIndex } from './codeIndexReader';
export { deriveFileMemories } from './memoryDrafts';
export type { DraftRelationType, MemoryDraft } from './memoryDrafts';
export { sourceTokens, tokenCost } from './tokenCost';
export type { TokenCost } from './tokenCost';
export { walkWorkspace, DEFAULT_MAX_FILE_BYTES } from './walker';
export type { SkippedFile, WalkOptions, WalkResult } from './walker';
export { DEFAULT_SKIPPED_DIRECTORIES } from './ignoreRules';
export { GRAMMAR_LANGUAGES, grammarFor, languageOf } from './languages';
export type * from './types';
