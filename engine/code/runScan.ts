import { promises as fsp, readFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { contentHash } from './fileContent';
import { scanFileContent } from './fileScanner';
import type { GrammarLoader } from './grammarLoader';
import { walkPaths } from './pathWalk';
import type { ResolutionCache } from './resolutionCache';
import type { ResolveContext } from './resolveContext';
import type { KnownFile, ScanEvent, ScanJob } from './scanProtocol';
import { scanScopes, scopeTest } from './scanScopes';
import { ScanSession } from './scanSession';
import type { FileScanResult, RenamedFile, WalkedFile } from './types';
import { walkWorkspace } from './walker';
import type { SkippedFile, WalkResult } from './walker';

/** Files per `files` event: few enough to write in one short transaction, many enough to be cheap to post. */
const BATCH_SIZE = 32;
const PROGRESS_EVERY = 25;

/**
 * One scan, in the calling thread (the worker runs exactly this): walk (the whole workspace, or
 * only `job.paths`), compare with the known index, read and parse what is new or changed, and
 * report through `emit`. It never writes the index itself. Renames (a new path with the hash of a
 * vanished one) are settled after the walk, so a moved file is never parsed again. Aborting stops
 * between files; everything emitted before is complete and safe to record. A `session` kept by
 * the caller carries grammars and configs over to the next scan; without one, all is freed here.
 */
export async function runScan(
  job: ScanJob,
  emit: (event: ScanEvent) => void,
  signal?: AbortSignal,
  session?: ScanSession,
): Promise<void> {
  const started = Date.now();
  const active = session ?? new ScanSession();
  const scopes = job.paths === undefined ? undefined : scanScopes(job.paths);
  try {
    const walk = await walkJob(job, scopes, active.resolutionFor(job), signal);
    emit({
      type: 'progress',
      progress: { phase: 'walk', done: walk.files.length, total: walk.files.length },
    });
    const { context, configs } = active.resolutionFor(job).current();
    const grammars = await active.grammars(job.grammarsDirectory);
    const inScopes = scopes && scopeTest(scopes);
    const known = inScopes ? job.known.filter((f) => inScopes(f.path)) : job.known;
    const state = new ScanState(job, known, emit, walk.skipped);
    for (const [index, file] of walk.files.entries()) {
      signal?.throwIfAborted();
      await state.visit(file, grammars, context);
      if ((index + 1) % PROGRESS_EVERY === 0) {
        state.flush();
        emit({ type: 'progress', progress: { phase: 'scan', done: index + 1, total: walk.files.length } });
      }
    }
    await state.settleRenames(grammars, context, signal);
    state.flush();
    emit({
      type: 'progress',
      progress: { phase: 'scan', done: walk.files.length, total: walk.files.length },
    });
    emit({ type: 'done', summary: { ...state.summary(), configs, millis: Date.now() - started } });
    if (session && (scopes === undefined || scopes.includes(''))) session.preload(grammars, walk.files);
  } finally {
    if (!session) await active.dispose();
  }
}

/**
 * The files to compare with the index, keeping the resolution cache equal to the disk. A targeted
 * job walks only its scopes, once the cache knows the whole file list (a full walk the first
 * time, since imports resolve against every file, not just the ones named).
 */
async function walkJob(
  job: ScanJob,
  scopes: string[] | undefined,
  cache: ResolutionCache,
  signal?: AbortSignal,
): Promise<WalkResult> {
  const options = {
    root: job.root,
    excludes: job.excludes ?? [],
    ...(job.maxFileBytes !== undefined ? { maxFileBytes: job.maxFileBytes } : {}),
    ...(job.skipDirectories !== undefined ? { skipDirectories: job.skipDirectories } : {}),
    ...(signal ? { signal } : {}),
  };
  if (scopes === undefined || scopes.includes('') || !cache.isPrimed) {
    const walk = await walkWorkspace(options);
    await cache.replaceAll(walk.files);
    if (scopes === undefined || scopes.includes('')) return walk;
  }
  const walk = await walkPaths(options, scopes);
  await cache.replaceScopes(scopes, walk.files);
  return walk;
}

/** The comparison of one walk with the known index, and the batching of what it emits. */
class ScanState {
  private readonly known = new Map<string, KnownFile>();
  private readonly knownByHash = new Map<string, string[]>();
  private readonly seen = new Set<string>();
  /** New paths whose content an indexed path had: renames, if that path is gone after the walk. */
  private readonly maybeRenamed: { file: WalkedFile; content: Uint8Array; hash: string }[] = [];
  private readonly renamed: RenamedFile[] = [];
  private unchanged = 0;
  private pendingFiles: { change: 'added' | 'changed'; result: FileScanResult }[] = [];
  private pendingTouched: KnownFile[] = [];

  constructor(
    private readonly job: ScanJob,
    known: readonly KnownFile[],
    private readonly emit: (event: ScanEvent) => void,
    private readonly skipped: SkippedFile[],
  ) {
    for (const file of known) {
      this.known.set(file.path, file);
      const paths = this.knownByHash.get(file.contentHash);
      if (paths) paths.push(file.path);
      else this.knownByHash.set(file.contentHash, [file.path]);
    }
  }

  async visit(file: WalkedFile, grammars: GrammarLoader, context: ResolveContext): Promise<void> {
    const known = this.known.get(file.path);
    if (
      known &&
      this.job.trustMtime !== false &&
      known.size === file.size &&
      known.mtimeMs === file.mtimeMs
    ) {
      this.seen.add(file.path);
      this.unchanged++;
      return;
    }
    let content: Uint8Array;
    try {
      // The scan worker's thread does nothing else: a synchronous read skips the thread-pool
      // round trip of each of thousands of small files (~1 s of a 7,500-file scan was async reads).
      content = isMainThread ? await fsp.readFile(file.absolutePath) : readFileSync(file.absolutePath);
    } catch {
      this.skipped.push({ path: file.path, reason: 'unreadable' });
      return;
    }
    const hash = contentHash(content);
    if (known?.contentHash === hash) {
      this.seen.add(file.path);
      this.unchanged++;
      this.pendingTouched.push({
        path: file.path,
        contentHash: hash,
        size: file.size,
        mtimeMs: file.mtimeMs,
      });
      return;
    }
    if (!known && this.knownByHash.has(hash)) {
      this.maybeRenamed.push({ file, content, hash });
      return;
    }
    await this.scan(file, content, known ? 'changed' : 'added', grammars, context);
  }

  async settleRenames(grammars: GrammarLoader, context: ResolveContext, signal?: AbortSignal): Promise<void> {
    const claimed = new Set<string>();
    for (const { file, content, hash } of this.maybeRenamed) {
      signal?.throwIfAborted();
      const from = (this.knownByHash.get(hash) ?? []).find((p) => !this.seen.has(p) && !claimed.has(p));
      if (from !== undefined) {
        claimed.add(from);
        this.seen.add(file.path);
        this.renamed.push({ from, to: file.path });
      } else {
        await this.scan(file, content, 'added', grammars, context);
      }
    }
    for (const from of claimed) this.seen.add(from);
  }

  flush(): void {
    if (this.pendingTouched.length > 0) this.emit({ type: 'touched', files: this.pendingTouched });
    if (this.pendingFiles.length > 0) this.emit({ type: 'files', files: this.pendingFiles });
    this.pendingTouched = [];
    this.pendingFiles = [];
  }

  summary(): { deleted: string[]; renamed: RenamedFile[]; unchanged: number; skipped: SkippedFile[] } {
    const deleted = [...this.known.keys()].filter((p) => !this.seen.has(p)).sort();
    return { deleted, renamed: this.renamed, unchanged: this.unchanged, skipped: this.skipped };
  }

  private async scan(
    file: WalkedFile,
    content: Uint8Array,
    change: 'added' | 'changed',
    grammars: GrammarLoader,
    context: ResolveContext,
  ): Promise<void> {
    const outcome = await scanFileContent(file, content, grammars, context, this.job.countTokens === true);
    if (outcome.kind === 'skipped') {
      this.skipped.push({ path: file.path, reason: outcome.reason });
      return;
    }
    this.seen.add(file.path);
    this.pendingFiles.push({ change, result: outcome.result });
    if (this.pendingFiles.length >= BATCH_SIZE) this.flush();
  }
}
