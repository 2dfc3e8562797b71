import { invalidInput } from '../errors';
import { requireCodeWorkspace } from '../code/codeWorkspace';
import { searchFiles, searchSymbols } from '../code/codeQueries';
import { buildRepoMap, referenceGraphOf } from '../code/repoMap';
import type { RepoMap } from '../code/repoMap';
import type { MemoryStore } from '../memory/memoryStore';
import { tokenCount } from '../retrieval/tokenCount';
import { optionalBoolean, optionalNumber, optionalQueryText, queryText, stringList } from './params';
import type { Params } from './params';
import { defineMethod, UNCHECKED_PARAMS } from './defineMethod';

function limitOf(p: Params, fallback: number): number {
  const limit = optionalNumber(p, 'limit') ?? fallback;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw invalidInput(`limit must be 1 to 1000; got ${limit}`);
  return limit;
}

/** @default 1024 tokens: room for about 20 files with their main signatures. */
const DEFAULT_MAP_BUDGET = 1024;
const MAX_MAP_BUDGET = 100_000;

function mapBudget(p: Params): number {
  const budget = optionalNumber(p, 'budget') ?? DEFAULT_MAP_BUDGET;
  if (!Number.isInteger(budget) || budget < 16 || budget > MAX_MAP_BUDGET)
    throw invalidInput(`budget must be a whole number of tokens from 16 to ${MAX_MAP_BUDGET}; got ${budget}`);
  return budget;
}

function repoMap(store: MemoryStore, p: Params): RepoMap {
  const focus = p['focus'] === undefined || p['focus'] === null ? [] : stringList(p, 'focus');
  const query = optionalQueryText(p, 'query');
  const budget = mapBudget(p);
  return store.read((r) =>
    buildRepoMap(r, referenceGraphOf(store, r), {
      focus: focus.filter((f) => f.trim() !== ''),
      query,
      budget,
      root: store.code?.options.root,
      countTokens: tokenCount,
    }),
  );
}

/**
 * The codebase layer's methods. `scan` writes (the code index and codebase memories) but is not
 * an exactly-once write: it is idempotent (a repeated scan finds nothing changed) and too long for
 * one transaction, so it commits per batch of files.
 */
export const CODE_METHODS = {
  /**
   * `{tokens?: boolean, paths?: string[]}` -> ScanResult. `paths` (workspace-relative, or absolute
   * inside the root) rescans just those files, for a file watcher; omitted, the whole workspace.
   */
  scan: defineMethod({
    params: UNCHECKED_PARAMS,
    write: false,
    run: (store: MemoryStore, p: Params) =>
      requireCodeWorkspace(store).scan(store, {
        tokens: optionalBoolean(p, 'tokens'),
        ...(p['paths'] === undefined || p['paths'] === null ? {} : { paths: stringList(p, 'paths') }),
      }),
  }),
  symbols: defineMethod({
    params: UNCHECKED_PARAMS,
    write: false,
    run: (store: MemoryStore, p: Params) =>
      store.read((r) => searchSymbols(r, queryText(p, 'query'), limitOf(p, 20))),
  }),
  files: defineMethod({
    params: UNCHECKED_PARAMS,
    write: false,
    run: (store: MemoryStore, p: Params) =>
      store.read((r) => searchFiles(r, queryText(p, 'query'), limitOf(p, 20))),
  }),
  /** The ranked repo map: `{focus?: string[], query?: string, budget?: number}` -> RepoMap. */
  map: defineMethod({ params: UNCHECKED_PARAMS, write: false, run: repoMap }),
} as const;
