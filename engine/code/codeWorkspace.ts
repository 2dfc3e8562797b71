import { EngramError } from '../errors';
import type { MemoryStore } from '../memory/memoryStore';
import { tokenCount } from '../retrieval/tokenCount';
import { syncCodebaseMemories } from './codebaseMemories';
import type { CodebaseMemorySync } from './codebaseMemories';
import { scanWorkspace } from './scanWorkspace';
import type { ScanReport } from './scanWorkspace';
import type { ScanProgress } from './scanProtocol';
import { sourceTokens } from './tokenCost';

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
  onProgress?: (progress: ScanProgress) => void;
}

export interface ScanResult extends Omit<ScanReport, 'skipped'> {
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

/**
 * The codebase layer of one workspace: scans into the code index, then brings the codebase
 * memories up to date. One scan at a time: a scan asked for while one runs waits for it.
 */
export class CodeWorkspace {
  private running: Promise<unknown> = Promise.resolve();

  constructor(readonly options: CodeWorkspaceOptions) {}

  scan(store: MemoryStore, request: { tokens?: boolean; signal?: AbortSignal } = {}): Promise<ScanResult> {
    const next = this.running.catch(() => undefined).then(() => this.scanNow(store, request));
    this.running = next;
    return next;
  }

  private async scanNow(
    store: MemoryStore,
    request: { tokens?: boolean; signal?: AbortSignal },
  ): Promise<ScanResult> {
    const report = await scanWorkspace({
      store: store.db,
      root: this.options.root,
      grammarsDirectory: this.options.grammarsDirectory,
      excludes: this.options.excludes,
      maxFileBytes: this.options.maxFileBytes,
      runner: this.options.runner,
      onProgress: this.options.onProgress,
      signal: request.signal,
      clock: store.clock,
    });
    const memories = syncCodebaseMemories(
      store,
      report.changes.renamed,
      request.tokens ? tokenCount : undefined,
    );
    const counts = store.read((r) => ({
      files: r.value<number>('SELECT count(*) FROM code_files') ?? 0,
      symbols: r.value<number>('SELECT count(*) FROM code_symbols') ?? 0,
      imports: r.value<number>('SELECT count(*) FROM code_imports') ?? 0,
      parsed: r.all<{ path: string }>('SELECT path FROM code_files WHERE parsed = 1').map((f) => f.path),
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
      const source = await sourceTokens(this.options.root, counts.parsed);
      result.tokenRatio = {
        memoryTokens: memories.memoryTokens,
        sourceTokens: source,
        ratio: source > 0 ? Math.round((memories.memoryTokens / source) * 1000) / 1000 : 0,
      };
    }
    return result;
  }
}

export function requireCodeWorkspace(store: MemoryStore): CodeWorkspace {
  if (!store.code)
    throw new EngramError(
      'UNAVAILABLE',
      'this engine has no workspace to scan: open it with a workspace root (--workspace DIR)',
    );
  return store.code;
}
