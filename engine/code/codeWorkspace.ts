import { EngramError } from '../errors';
import type { MemoryStore } from '../memory/memoryStore';
import { tokenCount } from '../retrieval/tokenCount';
import type { CodebaseMemorySync } from './codebaseMemories';
import { defaultWorkerScripts } from '../process/workerScripts';
import type { ScanWorkerScript } from './scanInWorker';
import type { ScanSession } from './scanSession';
import { ScanWorkerHost } from './scanWorkerHost';
import { workspaceRelativePaths } from './workspacePaths';
import type { ScanReport } from './scanWorkspace';
import type { ScanProgress } from './scanProtocol';

/** What the host knows about the workspace it scans. */
export interface CodeWorkspaceOptions {
  /** The workspace root; nothing outside it is read. */
  root: string;
  /** grammars/ (the .wasm grammars and .scm queries), e.g. dist/grammars beside the bundle. */
  grammarsDirectory: string;
  /** VS Code-style globs to leave out, beyond .gitignore and .engramignore. */
  excludes?: string[];
  maxFileBytes?: number;
  /** 'inline' parses on this thread (tests). @default 'worker' */
  runner?: 'worker' | 'inline';
  /** @default defaultWorkerScripts().scan (process/workerScripts.ts) */
  workerScript?: ScanWorkerScript;
  /** An idle scan worker is terminated after this long. @default DEFAULT_SCAN_WORKER_IDLE_MS (60 s) */
  workerIdleMs?: number;
  onProgress?: (progress: ScanProgress) => void;
}

export interface ScanResult extends Omit<ScanReport, 'skipped' | 'sourceTokens'> {
  root: string;
  files: number;
  symbols: number;
  imports: number;
  skipped: number;
  skippedByReason: Record<string, number>;
  memories: CodebaseMemorySync;
  /** With `tokens`: codebase memory tokens / source tokens of the parsed files (goal <= 0.1). */
  tokenRatio?: { memoryTokens: number; sourceTokens: number; ratio: number };
}

export interface ScanRequest {
  /** Also count memory and source tokens (a full report; slower). */
  tokens?: boolean;
  signal?: AbortSignal;
  /**
   * Rescan just these files or directories (relative to the root, or absolute inside it), as
   * found on disk now: added, changed or deleted, renames within the batch detected by hash. The
   * ignore rules apply as in a full scan. A path outside the root is refused. Omitted: the whole
   * workspace is walked.
   */
  paths?: readonly string[];
}

/**
 * The codebase layer of one workspace: scans into the code index, then brings the codebase
 * memories up to date. One scan at a time: a scan asked for while one runs waits for it. The
 * scanner (its worker thread, grammars and import-resolution configs) is kept between scans so a
 * file watcher's one-file rescan pays only for that file; `close` lets it go.
 *
 * The scanner's modules (tree-sitter, the manifest parsers, the walker) load on the first scan:
 * every host of a database with a workspace holds a CodeWorkspace, and most never scan (an MCP
 * bridge in the compat profile, a CLI call), while evaluating them took ~10 MB of every process.
 */
export class CodeWorkspace {
  private running: Promise<unknown> = Promise.resolve();
  private readonly worker: ScanWorkerHost;
  /** Made by the first scan. */
  private session: ScanSession | undefined;
  /** Aborted by `close`: a host going away does not wait out a cold scan (the next one resumes it). */
  private readonly closing = new AbortController();
  private closed = false;

  constructor(readonly options: CodeWorkspaceOptions) {
    this.worker = new ScanWorkerHost(
      options.workerScript ?? defaultWorkerScripts().scan,
      options.workerIdleMs,
    );
  }

  scan(store: MemoryStore, request: ScanRequest = {}): Promise<ScanResult> {
    if (this.closed) return Promise.reject(new EngramError('CLOSED', 'the workspace scanner is closed'));
    let paths: string[] | undefined;
    try {
      paths = request.paths && workspaceRelativePaths(this.options.root, request.paths);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    const next = this.running.catch(() => undefined).then(() => this.scanNow(store, request, paths));
    this.running = next;
    return next;
  }

  /** Aborts the running scan and waits for it to stop, then stops the worker and frees the grammars. */
  async close(): Promise<void> {
    this.closed = true;
    this.closing.abort(new EngramError('CLOSED', 'the workspace scanner was closed'));
    await this.running.catch(() => undefined);
    await this.worker.close();
    await this.session?.dispose();
  }

  private async scanNow(
    store: MemoryStore,
    request: ScanRequest,
    paths: string[] | undefined,
  ): Promise<ScanResult> {
    const [
      { scanWorkspace },
      { ScanSession },
      { syncCodebaseMemories },
      { sourceTokens },
      { LiveDerivation },
    ] = await Promise.all([
      import('./scanWorkspace'),
      import('./scanSession'),
      import('./codebaseMemories'),
      import('./tokenCost'),
      import('./liveDerivation'),
    ]);
    this.session ??= new ScanSession();
    const live = new LiveDerivation(store);
    const scanning = scanWorkspace({
      ...(paths ? { paths } : {}),
      worker: this.worker,
      session: this.session,
      store: store.db,
      root: this.options.root,
      grammarsDirectory: this.options.grammarsDirectory,
      excludes: this.options.excludes,
      maxFileBytes: this.options.maxFileBytes,
      runner: this.options.runner,
      onProgress: this.options.onProgress,
      signal: request.signal ? AbortSignal.any([request.signal, this.closing.signal]) : this.closing.signal,
      clock: store.clock,
      onFilesIndexed: (indexed) => live.add(indexed),
      // Counted by the worker as it reads each file: this thread is the scan's busier one.
      countTokens: request.tokens === true,
    });
    // The scan's failure is the one to report; derivation stops either way.
    const report = await scanning.finally(() => live.finish().catch(() => undefined));
    // A targeted rescan finds orphans through the sync table; a full one also reads every memory.
    const memories = await syncCodebaseMemories(
      store,
      report.changes.renamed,
      request.tokens ? tokenCount : undefined,
      paths ? 'synced' : 'memories',
      await live.finish(),
    );
    const counts = store.read((r) => ({
      files: r.value<number>('SELECT count(*) FROM code_files') ?? 0,
      symbols: r.value<number>('SELECT count(*) FROM code_symbols') ?? 0,
      imports: r.value<number>('SELECT count(*) FROM code_imports') ?? 0,
    }));
    const skippedByReason: Record<string, number> = {};
    for (const s of report.skipped) skippedByReason[s.reason] = (skippedByReason[s.reason] ?? 0) + 1;
    const result: ScanResult = {
      root: this.options.root,
      generation: report.generation,
      changes: report.changes,
      interruptedScans: report.interruptedScans,
      importsReresolved: report.importsReresolved,
      millis: report.millis,
      files: counts.files,
      symbols: counts.symbols,
      imports: counts.imports,
      skipped: report.skipped.length,
      skippedByReason,
      memories,
    };
    if (request.tokens) {
      const parsed = store.read((r) =>
        r.all<{ path: string }>('SELECT path FROM code_files WHERE parsed = 1').map((f) => f.path),
      );
      const source = await sourceTokens(this.options.root, parsed, report.sourceTokens);
      result.tokenRatio = {
        memoryTokens: memories.memoryTokens,
        sourceTokens: source,
        ratio: source > 0 ? Math.round((memories.memoryTokens / source) * 1000) / 1000 : 0,
      };
    }
    return result;
  }
}

/** The engine's workspace (EngineContext.code), or a clear UNAVAILABLE error. */
export function requireCodeWorkspace(code: CodeWorkspace | undefined): CodeWorkspace {
  if (!code)
    throw new EngramError(
      'UNAVAILABLE',
      'this engine has no workspace to scan: open it with a workspace root (--workspace DIR)',
    );
  return code;
}
