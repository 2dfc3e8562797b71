import { z } from 'zod';
import { requireCodeWorkspace } from '../code/codeWorkspace';
import type { ScanResult } from '../code/codeWorkspace';
import type { ScanDrift } from '../drift/driftReport';
import { searchFiles, searchSymbols } from '../code/codeQueries';
import { buildRepoMap, referenceGraphOf } from '../code/repoMap';
import { LOCATE_CHANNELS, locate } from '../code/search/locate';
import type { RepoMap } from '../code/repoMap';
import type { EngineContext } from './engineContext';
import { boundedIssue, boundedQuery } from '../retrieval/queryLimit';
import { tokenCount } from '../retrieval/tokenCount';
import { defineMethod, methodParams } from './defineMethod';
import { actorOf } from './params';
import { requiredText, textList, wholeNumber } from './paramFields';

/** @default 1024 tokens: room for about 20 files with their main signatures. */
const DEFAULT_MAP_BUDGET = 1024;
export const MAX_MAP_BUDGET = 100_000;
export const MAX_CODE_HITS = 1000;

/** The parameters of the codebase layer's methods; the MCP code tools pick their fields from these. */
export const SCAN_PARAMS = methodParams({
  tokens: z.boolean().optional().describe('count memory and source tokens (default true)'),
  paths: textList.optional(),
});
export const CODE_SEARCH_PARAMS = methodParams({
  query: requiredText,
  limit: wholeNumber(1, MAX_CODE_HITS, `must be 1 to ${MAX_CODE_HITS}`)
    .optional()
    .describe('most results (default 20)'),
});
export const MAP_PARAMS = methodParams({
  focus: textList.optional(),
  query: z.string().optional(),
  budget: wholeNumber(16, MAX_MAP_BUDGET, `must be a whole number of tokens from 16 to ${MAX_MAP_BUDGET}`)
    .optional()
    .describe(`token budget of the rendered map (default ${DEFAULT_MAP_BUDGET})`),
});

export const LOCATE_PARAMS = methodParams({
  query: requiredText,
  limit: wholeNumber(1, MAX_CODE_HITS, `must be 1 to ${MAX_CODE_HITS}`)
    .optional()
    .describe('most files (default 20)'),
  channels: z
    .array(z.enum(LOCATE_CHANNELS))
    .min(1)
    .optional()
    .describe('channels to rank by (default: those with a fusion weight)'),
});

async function scanWithDrift(
  { store, code }: EngineContext,
  p: z.output<typeof SCAN_PARAMS>,
): Promise<ScanResult & { drift: ScanDrift }> {
  const workspace = requireCodeWorkspace(code);
  const scan = await workspace.scan(store, {
    tokens: p.tokens,
    ...(p.paths === undefined ? {} : { paths: p.paths }),
  });
  let drift: ScanDrift;
  try {
    // The checker loads on the first scan, not with the engine (a compat bridge never scans).
    const { driftOfScan } = await import('../drift/scanDrift');
    drift = await driftOfScan(store, workspace.options.root, scan.changes, actorOf(p));
  } catch (error) {
    // The scan is committed: its result stands, and the drift check says why it did not run.
    drift = { checked: [], memories: [], error: error instanceof Error ? error.message : String(error) };
  }
  return { ...scan, drift };
}

function repoMap({ store, code }: EngineContext, p: z.output<typeof MAP_PARAMS>): RepoMap {
  const query = p.query === undefined ? undefined : boundedQuery('query', p.query);
  return store.read((r) =>
    buildRepoMap(r, referenceGraphOf(store, r), {
      focus: (p.focus ?? []).filter((f) => f.trim() !== ''),
      query,
      budget: p.budget ?? DEFAULT_MAP_BUDGET,
      root: code?.options.root,
      countTokens: tokenCount,
    }),
  );
}

/** Recall's sources out of the context (fitted by shape, see recallSources.ts). */
function pickRecallSources({ store, graph, entityWeights }: EngineContext) {
  return { store, graph, entityWeights };
}

/**
 * The codebase layer's methods. `scan` writes (the code index and codebase memories) but is not
 * an exactly-once write: it is idempotent (a repeated scan finds nothing changed) and too long for
 * one transaction, so it commits per batch of files.
 */
export const CODE_METHODS = {
  /**
   * `{tokens?: boolean, paths?: string[]}` -> ScanResult with its `drift`. `paths`
   * (workspace-relative, or absolute inside the root) rescans just those files, for a file watcher;
   * omitted, the whole workspace. The memories whose claims name a changed path are then checked
   * for drift (scanDrift.ts), so no host needs a second call after a scan.
   */
  scan: defineMethod({
    params: SCAN_PARAMS,
    write: false,
    run: (engine, p) => scanWithDrift(engine, p),
  }),
  symbols: defineMethod({
    params: CODE_SEARCH_PARAMS,
    write: false,
    run: ({ store }, p) => store.read((r) => searchSymbols(r, boundedQuery('query', p.query), p.limit ?? 20)),
  }),
  files: defineMethod({
    params: CODE_SEARCH_PARAMS,
    write: false,
    run: ({ store }, p) => store.read((r) => searchFiles(r, boundedQuery('query', p.query), p.limit ?? 20)),
  }),
  /**
   * "Where should I look for this?": `{query, limit?, channels?}` -> LocateResult, the workspace
   * files ranked for a question or an issue report, each with the channels, fields and symbols
   * that put it there (engine/code/search/locate.ts).
   */
  locate: defineMethod({
    params: LOCATE_PARAMS,
    write: false,
    run: (engine, p) =>
      locate(
        { ...pickRecallSources(engine), root: engine.code?.options.root },
        { query: boundedIssue('query', p.query), limit: p.limit, channels: p.channels },
      ),
  }),
  /** The ranked repo map: `{focus?: string[], query?: string, budget?: number}` -> RepoMap. */
  map: defineMethod({ params: MAP_PARAMS, write: false, run: repoMap }),
} as const;
