import type { ConfigFile } from './resolveContext';
import type { FileScanResult, RenamedFile } from './types';
import type { SkippedFile } from './walker';

/** A file the index already holds, as the caller tells the scanner at the start. */
export interface KnownFile {
  path: string;
  contentHash: string;
  size: number;
  mtimeMs: number;
}

/** Everything a scan needs; plain data, so it crosses into a worker thread unchanged. */
export interface ScanJob {
  root: string;
  /** The directory with web-tree-sitter.wasm, tree-sitter-<lang>.wasm and <lang>.scm (grammars/). */
  grammarsDirectory: string;
  excludes?: string[];
  /** @default 1 MiB */
  maxFileBytes?: number;
  skipDirectories?: string[];
  /**
   * A targeted scan: only these root-relative paths (files or directories, present or gone; see
   * scanScopes) are walked and compared, and only indexed files under them can be deleted or be
   * the source of a rename. Omitted: the whole workspace.
   */
  paths?: string[];
  /** The indexed files (under `paths` when given: others are ignored). */
  known: KnownFile[];
  /**
   * Treat a file whose size and mtime match the index as unchanged without reading it, as git
   * does. Off, every file is read and hashed.
   * @default true
   */
  trustMtime?: boolean;
  /**
   * Count the tokens of each parsed file where its text is read (FileScanResult.tokens), for the
   * token-cost report, instead of reading every file again on the caller's thread afterwards.
   * @default false
   */
  countTokens?: boolean;
}

export interface ScanProgress {
  phase: 'walk' | 'scan';
  done: number;
  total: number;
}

/** The end of a scan: what the walk and the comparison with the index found beyond the files sent. */
export interface ScanSummary {
  /** Indexed paths that no longer exist (or are now ignored or skipped). */
  deleted: string[];
  renamed: RenamedFile[];
  unchanged: number;
  skipped: SkippedFile[];
  /** tsconfig/go.mod/Cargo.toml files, for resolving imports again after renames and deletions. */
  configs: ConfigFile[];
  millis: number;
}

/**
 * What a scan reports, in order: progress; each added or changed file's full result; unchanged
 * files whose mtime moved (so the fast path works next time); then one summary.
 */
export type ScanEvent =
  | { type: 'progress'; progress: ScanProgress }
  | { type: 'files'; files: { change: 'added' | 'changed'; result: FileScanResult }[] }
  | { type: 'touched'; files: KnownFile[] }
  | { type: 'done'; summary: ScanSummary };

/** What the caller posts to the long-lived scan worker: one scan at a time. */
export interface ScanRequest {
  type: 'scan';
  job: ScanJob;
}

export function isScanRequest(value: unknown): value is ScanRequest {
  return (value as { type?: unknown } | null)?.type === 'scan';
}

/** Messages from the worker thread: scan events, or the failure that ended the scan. */
export type WorkerMessage = ScanEvent | { type: 'failed'; message: string };

export function isWorkerMessage(value: unknown): value is WorkerMessage {
  const type = (value as { type?: unknown } | null)?.type;
  return ['progress', 'files', 'touched', 'done', 'failed'].includes(type as string);
}
