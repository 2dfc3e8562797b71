import { realpathSync } from 'node:fs';
import type { SqlReader } from '../store/sqlAccess';
import { BatchLoader } from './batchLoader';
import type { CommitEvidence } from './claimTypes';
import { grepNeedles } from './gitGrep';
import { commitsAt, openGit, pathEvents } from './gitHistory';
import { firstChange } from './historyWalk';
import { firstBreak, heldAt, nameAtHead } from './fileHistory';
import { StoredHistory } from './historyStore';
import type { ReadLater } from './historyStore';
import type { FileReader } from './fileHistory';
import type { GitContext, PathEvent } from './gitHistory';
import { readManifestFacts } from './manifestFacts';
import type { ManifestFacts } from './manifestFacts';
import { readSymbolIndex } from './symbolIndex';
import type { SymbolIndex } from './symbolIndex';
import { WorkspaceSearch } from './workspaceSearch';
import type { RouteDefinition } from './routeDefinitions';

/** Everything a check knows about the workspace now, read once per check. */
export interface VerificationContext {
  root: string;
  realRoot: string;
  git: GitContext | undefined;
  /** History answers stored in the database: read at the start of the check, new ones saved at its end. */
  history: StoredHistory;
  manifests: ManifestFacts;
  symbols: SymbolIndex;
  search: WorkspaceSearch;
  /** Code files holding each identifier now (whole word, in code: see evidenceFiles.ts), batched across claims. */
  words: BatchLoader<Set<string>>;
  /** Files holding each literal string now, batched across claims. */
  literals: BatchLoader<Set<string>>;
  /** Code files holding each literal string in their code now (not in comments or sentences). */
  codeLiterals: BatchLoader<Set<string>>;
  /** The routes the code defines, with file and method (asked only when a claim names a route). */
  routes(): Promise<Map<string, RouteDefinition[]>>;
  /** Every deletion and rename per path, newest first. */
  pathEvents: Promise<Map<string, PathEvent[]>>;
  /** Files holding an identifier at any of the commits a memory may have described. */
  wordsAt(commits: readonly string[], word: string): Promise<Set<string>>;
  /** The commits HEAD may have been at when a memory became valid (see commitsAt). */
  commitsAt(time: number): Promise<string[]>;
  /** The first commit after a memory's time after which `needle` is gone from (or in) `files`. */
  firstChange(
    needle: string,
    files: readonly string[],
    time: number,
    becomes: 'absent' | 'present',
  ): Promise<CommitEvidence | undefined>;
  /** The first version of `files` after a memory's time that makes its claim false (see firstBreak). */
  fileBreak<T>(
    files: readonly string[],
    time: number,
    reader: FileReader<T>,
    isFalse: (value: T) => boolean,
    mode: 'every' | 'any',
  ): Promise<CommitEvidence | undefined>;
  /** Where a file of the history is now: renames followed; undefined when deleted (the file itself without git). */
  nameNow(file: string): Promise<string | undefined>;
  /** Whether the claim held in any of `files` when the memory was written (undefined: history cannot tell). */
  heldThen<T>(
    files: readonly string[],
    time: number,
    reader: FileReader<T>,
    holds: (value: T) => boolean,
  ): Promise<boolean | undefined>;
}

/** What the caller already read for the check, so it is not read again. */
export interface ContextSources {
  manifests?: ManifestFacts;
  /** @default the whole code index, read now (a full check asks about most of it) */
  symbols?: SymbolIndex;
  /** Reads the database after `reader`'s read has ended (stored history answers when asked). */
  readLater?: ReadLater;
}

export async function createVerificationContext(
  reader: SqlReader,
  root: string,
  sources: ContextSources = {},
): Promise<VerificationContext> {
  const realRoot = realpathSync(root);
  // The database is read before the first await: a reader is only valid inside its read.
  const manifests = sources.manifests ?? readManifestFacts(reader, root, realRoot);
  const symbols = sources.symbols ?? readSymbolIndex(reader);
  const history = StoredHistory.read(reader, root, sources.readLater);
  const git = await openGit(root, history);
  const search = new WorkspaceSearch(root, git);
  let routes: Promise<Map<string, RouteDefinition[]>> | undefined;
  const loaders = new Map<string, BatchLoader<Set<string>>>();
  const wordsAtLoader = (commit: string) => {
    let loader = loaders.get(commit);
    if (!loader && git) {
      loader = new BatchLoader(
        (keys) => grepNeedles(git, keys, { commit, wholeWord: true, scope: 'code' }),
        new Set(),
      );
      loaders.set(commit, loader);
    }
    return loader;
  };
  return {
    root,
    realRoot,
    git,
    history,
    manifests,
    symbols,
    search,
    words: new BatchLoader((keys) => search.find(keys, true, 'code'), new Set()),
    literals: new BatchLoader((keys) => search.find(keys, false), new Set()),
    codeLiterals: new BatchLoader((keys) => search.find(keys, false, 'code'), new Set()),
    routes: () => (routes ??= search.routes()),
    pathEvents: git ? settledLater(pathEvents(git)) : Promise.resolve(new Map<string, PathEvent[]>()),
    wordsAt: async (commits, word) => {
      const found = await Promise.all(
        commits.map((c) => wordsAtLoader(c)?.get(word) ?? Promise.resolve(new Set<string>())),
      );
      return new Set(found.flatMap((files) => [...files]));
    },
    commitsAt: (time) => (git ? commitsAt(git, time) : Promise.resolve([])),
    firstChange: async (needle, files, time, becomes) =>
      git ? firstChange(git, needle, files, await commitsAt(git, time), becomes) : undefined,
    fileBreak: async (files, time, reader, isFalse, mode) =>
      git ? firstBreak(git, files, (await commitsAt(git, time))[0], reader, isFalse, mode) : undefined,
    nameNow: (file) => (git ? nameAtHead(git, file) : Promise.resolve(file)),
    heldThen: async (files, time, reader, holds) =>
      git && !git.shallow ? heldAt(git, files, (await commitsAt(git, time))[0], reader, holds) : undefined,
  };
}

/**
 * A promise started before anyone may ask for it (a check whose claims never need it leaves it
 * pending): marked handled, so a failure no one awaited (the workspace deleted meanwhile) is no
 * unhandled rejection; whoever awaits it still sees the failure.
 */
function settledLater<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/** Why a check could not use history, for the report. */
export function historyNote(ctx: VerificationContext): string {
  if (!ctx.git) return 'no git repository: filesystem and code index only, no commits attributed';
  if (ctx.git.shallow) return 'shallow clone: changes before its oldest commit are not attributed';
  return 'git history available';
}
