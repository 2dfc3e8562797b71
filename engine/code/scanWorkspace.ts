import type { Clock } from '../host';
import {
  beginScan,
  deleteFiles,
  finishScan,
  indexedConfigPaths,
  indexedPaths,
  readKnownFiles,
  readKnownFilesUnder,
  renameFiles,
  reresolveImports,
  touchFiles,
  writeFiles,
} from './codeIndexWriter';
import type { CodeIndexStore } from './codeIndexWriter';
import { isResolutionConfig, RESOLUTION_CONFIG_KINDS } from './resolutionCache';
import { createResolveContext } from './resolveContext';
import { runScan } from './runScan';
import { defaultWorkerScripts } from '../process/workerScripts';
import { scanInWorker } from './scanInWorker';
import type { ScanWorkerScript } from './scanInWorker';
import type { ScanEvent, ScanJob, ScanProgress, ScanSummary } from './scanProtocol';
import { scanScopes } from './scanScopes';
import type { ScanSession } from './scanSession';
import type { ScanWorkerHost } from './scanWorkerHost';
import type { ChangeSet } from './types';
import type { SkippedFile } from './walker';
import { DERIVED_WRITE } from '../store/durableDatabase';

export interface ScanWorkspaceOptions {
  /** The engine database with the code index migration applied. */
  store: CodeIndexStore;
  /** The workspace root; nothing outside it is read. */
  root: string;
  /** Where the grammars are: see ScanJob.grammarsDirectory. */
  grammarsDirectory: string;
  /** VS Code-style globs to leave out. */
  excludes?: string[];
  /** @default 1 MiB */
  maxFileBytes?: number;
  /** @default DEFAULT_SKIPPED_DIRECTORIES */
  skipDirectories?: string[];
  /** @default true: see ScanJob.trustMtime */
  trustMtime?: boolean;
  signal?: AbortSignal;
  onProgress?: (progress: ScanProgress) => void;
  /** 'worker' parses in a worker thread; 'inline' in this one (tests, small jobs). @default 'worker' */
  runner?: 'worker' | 'inline';
  /** @default defaultWorkerScripts().scan (process/workerScripts.ts) */
  workerScript?: ScanWorkerScript;
  /**
   * A long-lived worker to run the scan in (runner 'worker'), so the next scan reuses its thread,
   * grammars and resolution cache. Omitted: a worker of this scan's own.
   */
  worker?: ScanWorkerHost;
  /** The same for runner 'inline': grammars and caches kept by the caller between scans. */
  session?: ScanSession;
  /**
   * A targeted rescan of just these root-relative paths (see ScanJob.paths): what the editor's
   * file watcher reports. Omitted: the whole workspace.
   */
  paths?: string[];
  clock?: Clock;
  /** Told the paths of each batch of added and changed files once their index rows are written. */
  onFilesIndexed?: (paths: string[]) => void;
  /** See ScanJob.countTokens: the counts are in ScanReport.sourceTokens. @default false */
  countTokens?: boolean;
}

export interface ScanReport {
  generation: number;
  changes: ChangeSet;
  skipped: SkippedFile[];
  /** Generations of earlier scans that were killed before finishing (this one completed their work). */
  interruptedScans: number[];
  /** Imports whose resolution changed because files appeared, moved or went away. */
  importsReresolved: number;
  millis: number;
  /** Tokens of the files this scan parsed, by path, when it counted them (`countTokens`). */
  sourceTokens: Map<string, number>;
}

/**
 * Scans a workspace (or, with `paths`, just those parts of it) into the code index,
 * incrementally: only added and changed files are parsed, renames move rows, deletions remove them. Parsing runs in a worker; every write happens here,
 * one transaction per batch of files, each file recorded together with its symbols. Deletions
 * are applied only when the walk completed, so an aborted or killed scan never removes anything,
 * and the next scan takes up where it stopped.
 */
export async function scanWorkspace(options: ScanWorkspaceOptions): Promise<ScanReport> {
  const clock = options.clock ?? Date.now;
  const started = clock();
  const { store } = options;
  // A targeted scan also looks at the indexed import-resolution configs (a stat each): an edit to
  // one the watcher did not report still changes how the named files' imports resolve.
  const scopes =
    options.paths === undefined
      ? undefined
      : scanScopes([...options.paths, ...store.read((r) => indexedConfigPaths(r, RESOLUTION_CONFIG_KINDS))]);
  const known = store.read((r) => (scopes ? readKnownFilesUnder(r, scopes) : readKnownFiles(r)));
  const { generation, interrupted } = store.write(
    (tx) => beginScan(tx, options.root, clock()),
    DERIVED_WRITE,
  );
  const changes: ChangeSet = { added: [], changed: [], deleted: [], renamed: [], unchanged: 0 };
  let summary: ScanSummary | undefined;
  const sourceTokens = new Map<string, number>();

  const onEvent = (event: ScanEvent) => {
    if (event.type === 'progress') options.onProgress?.(event.progress);
    else if (event.type === 'touched') store.write((tx) => touchFiles(tx, event.files), DERIVED_WRITE);
    else if (event.type === 'files') {
      store.write(
        (tx) =>
          writeFiles(
            tx,
            generation,
            event.files.map((f) => f.result),
          ),
        DERIVED_WRITE,
      );
      for (const { change, result } of event.files) {
        changes[change].push(result.path);
        if (result.tokens !== undefined) sourceTokens.set(result.path, result.tokens);
      }
      options.onFilesIndexed?.(event.files.map((f) => f.result.path));
    } else summary = event.summary;
  };
  const job: ScanJob = {
    root: options.root,
    grammarsDirectory: options.grammarsDirectory,
    known,
    ...(scopes ? { paths: scopes } : {}),
    ...(options.excludes ? { excludes: options.excludes } : {}),
    ...(options.maxFileBytes !== undefined ? { maxFileBytes: options.maxFileBytes } : {}),
    ...(options.skipDirectories ? { skipDirectories: options.skipDirectories } : {}),
    ...(options.trustMtime !== undefined ? { trustMtime: options.trustMtime } : {}),
    ...(options.countTokens ? { countTokens: true } : {}),
  };
  try {
    if (options.runner === 'inline') await runScan(job, onEvent, options.signal, options.session);
    else if (options.worker) await options.worker.run(job, onEvent, options.signal);
    else
      await scanInWorker(options.workerScript ?? defaultWorkerScripts().scan, job, onEvent, options.signal);
  } catch (error) {
    store.write((tx) => finishScan(tx, generation, 'aborted', clock(), changes), DERIVED_WRITE);
    throw error;
  }
  const done = summary ?? emptySummary();
  changes.deleted = done.deleted;
  changes.renamed = done.renamed;
  changes.unchanged = done.unchanged;
  const importsReresolved = store.write((tx) => {
    renameFiles(tx, generation, done.renamed);
    deleteFiles(tx, done.deleted);
    let updated = 0;
    const configChanged = changedPaths(changes, done).some(isResolutionConfig);
    if (configChanged || changes.added.length + done.deleted.length + done.renamed.length > 0) {
      const context = createResolveContext(indexedPaths(tx), done.configs);
      updated = reresolveImports(
        tx,
        context,
        done.renamed.map((r) => r.to),
        configChanged,
      );
    }
    finishScan(tx, generation, 'complete', clock(), changes);
    return updated;
  }, DERIVED_WRITE);
  return {
    generation,
    changes,
    skipped: done.skipped,
    interruptedScans: interrupted,
    importsReresolved,
    millis: clock() - started,
    sourceTokens,
  };
}

function changedPaths(changes: ChangeSet, done: ScanSummary): string[] {
  return [
    ...changes.added,
    ...changes.changed,
    ...done.deleted,
    ...done.renamed.flatMap((r) => [r.from, r.to]),
  ];
}

function emptySummary(): ScanSummary {
  return { deleted: [], renamed: [], unchanged: 0, skipped: [], configs: [], millis: 0 };
}
