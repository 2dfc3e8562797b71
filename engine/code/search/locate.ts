import { recall } from '../../retrieval/recall';
import type { RecallSources } from '../../retrieval/recallSources';
import { MAX_QUERY_CHARS } from '../../retrieval/queryLimit';
import { mentionsIn } from '../mapMentions';
import { referenceGraphOf } from '../repoMap';
import { rankRepository } from '../repoRanking';
import { codeSearchIndexOf } from './codeSearchIndex';
import { DEFAULT_CODE_SEARCH, searchCode } from './codeSearch';
import type { CodeFileHit, CodeSearchParams, CodeSymbolHit } from './codeSearch';
import type { CodeField } from './fieldIndex';
import { pathRole, rolesAskedFor } from './pathRoles';
import type { PathRole } from './pathRoles';

/**
 * "Where should I look for this?": the workspace files ranked for a question or an issue report,
 * each with the channels and fields that put it there.
 *
 * - `code`: BM25F over the code index, files and symbols (codeSearch.ts), with path-role priors;
 * - `recall`: recall of the question over the codebase-layer memories, memories mapped to files;
 * - `map`: the repo map's PageRank personalised by the query: seeded at the files and identifiers
 *   it names and at the code channel's best files, so it differs per query.
 *
 * The channels are fused by weighted reciprocal rank; the weights are the measured quality of each
 * channel on the tuning half of the localisation bench (docs/benchmarks.md): today only `code`
 * has one, the others run when a caller asks for them (`channels`).
 */
export const LOCATE_CHANNELS = ['code', 'recall', 'map'] as const;
export type LocateChannel = (typeof LOCATE_CHANNELS)[number];

export interface LocateParams {
  code: CodeSearchParams;
  /** Fusion weight per channel (0 leaves it out). */
  weights: Record<LocateChannel, number>;
  /** The reciprocal-rank constant. */
  rrfK: number;
  /** How many of the code channel's best files seed the map's walk. */
  mapSeeds: number;
}

export const DEFAULT_LOCATE: LocateParams = {
  code: DEFAULT_CODE_SEARCH,
  // Measured on the tuning half, fusing lowered the code channel's MRR (0.637 alone; recall at 0.15
  // to 0.5: 0.561-0.577; the query-seeded map at 0.2: 0.583): both stay out unless asked for.
  weights: { code: 1, recall: 0, map: 0 },
  rrfK: 60,
  mapSeeds: 5,
};

export interface LocateRequest {
  query: string;
  /** @default 20 */
  limit?: number;
  /**
   * The channels to run. One alone ranks by itself; several are fused by their weights, and one
   * whose weight is 0 shows its ranks in each file's `channels` without moving the order.
   * @default every channel with a weight
   */
  channels?: readonly LocateChannel[];
}

export interface LocatedFile {
  path: string;
  role: PathRole;
  score: number;
  /** Per channel that found the file: its rank there (1 = best) and what it matched. */
  channels: {
    code?: { rank: number; score: number; fields: Partial<Record<CodeField, number>>; prior: number };
    recall?: { rank: number; memories: string[] };
    map?: { rank: number; score: number };
  };
  /** The file's symbols that best match the question, when the code channel ran. */
  symbols: CodeSymbolHit[];
}

export interface LocateResult {
  query: string;
  files: LocatedFile[];
  trace: {
    /** Roles the query asks for by name (their files are not demoted). */
    rolesAskedFor: PathRole[];
    channels: Array<{ name: LocateChannel; weight: number; candidates: number; ms: number }>;
    indexedFiles: number;
    note?: string;
  };
}

/** What locate reads: recall's sources and the workspace root (file text for the code channel). */
export interface LocateSources extends RecallSources {
  root: string | undefined;
}

const DEPTH = 100;

export async function locate(
  sources: LocateSources,
  request: LocateRequest,
  params: LocateParams = DEFAULT_LOCATE,
): Promise<LocateResult> {
  const { store } = sources;
  const limit = request.limit ?? 20;
  const wanted = new Set(request.channels ?? LOCATE_CHANNELS.filter((c) => params.weights[c] > 0));
  const depth = Math.max(DEPTH, limit);
  // A channel asked for alone ranks by itself, whatever its fusion weight.
  const weight = (name: LocateChannel) => (wanted.size === 1 ? 1 : params.weights[name]);
  const channels: LocateResult['trace']['channels'] = [];
  const timed = <T extends unknown[]>(name: LocateChannel, run: () => T): T => {
    const started = performance.now();
    const ranked = run();
    channels.push({
      name,
      weight: weight(name),
      candidates: ranked.length,
      ms: Math.round((performance.now() - started) * 100) / 100,
    });
    return ranked;
  };

  const indexedFiles = store.read((r) => r.value<number>('SELECT count(*) FROM code_files') ?? 0);
  const searched = () =>
    store.read((r) =>
      searchCode(codeSearchIndexOf(store, r, sources.root), request.query, depth, params.code),
    );
  // The map's walk starts at the code channel's best files, so it runs for the map alone too.
  const code = wanted.has('code') ? timed('code', searched) : wanted.has('map') ? searched() : [];
  let recalled: Array<{ path: string; memories: string[] }> = [];
  if (wanted.has('recall')) {
    const started = performance.now();
    const result = await recall(sources, {
      query: request.query.slice(0, MAX_QUERY_CHARS),
      k: depth,
      layer: 'codebase',
      channels: ['lexical', 'graph', 'ppr'],
      noteAccess: false,
    });
    recalled = filesOfMemories(result.hits.map((h) => h.memory));
    channels.push({
      name: 'recall',
      weight: weight('recall'),
      candidates: recalled.length,
      ms: Math.round((performance.now() - started) * 100) / 100,
    });
  }
  const map = wanted.has('map')
    ? timed('map', () => store.read((r) => mapRanking(store, r, request.query, code, params.mapSeeds, depth)))
    : [];

  const fused = new Map<string, LocatedFile>();
  const entry = (path: string, role: PathRole) => {
    let file = fused.get(path);
    if (!file) fused.set(path, (file = { path, role, score: 0, channels: {}, symbols: [] }));
    return file;
  };
  const add = (name: LocateChannel, rank: number) => weight(name) / (params.rrfK + rank);
  if (wanted.has('code'))
    code.forEach((hit: CodeFileHit, i) => {
      const file = entry(hit.path, hit.role);
      file.score += add('code', i + 1);
      file.channels.code = {
        rank: i + 1,
        score: round(hit.score),
        fields: roundAll(hit.fields),
        prior: hit.prior,
      };
      file.symbols = hit.symbols.map((s) => ({ ...s, score: round(s.score) }));
    });
  recalled.forEach((hit, i) => {
    const file = entry(hit.path, pathRole(hit.path));
    file.score += add('recall', i + 1);
    file.channels.recall = { rank: i + 1, memories: hit.memories };
  });
  map.forEach((hit, i) => {
    const file = entry(hit.path, pathRole(hit.path));
    file.score += add('map', i + 1);
    file.channels.map = { rank: i + 1, score: hit.score };
  });
  const files = [...fused.values()]
    .filter((f) => f.score > 0)
    .sort((a, b) => b.score - a.score || a.path.localeCompare(b.path))
    .slice(0, limit)
    .map((f) => ({ ...f, score: round(f.score) }));
  return {
    query: request.query,
    files,
    trace: {
      rolesAskedFor: [...rolesAskedFor(request.query)],
      channels,
      indexedFiles,
      ...(indexedFiles === 0 ? { note: 'the code index is empty: run `engram scan` first' } : {}),
    },
  };
}

/** Codebase memories to their files, by conflict key (`code:file:`, `code:symbol:path#name`) or source. */
function filesOfMemories(
  memories: Array<{ id: string; conflictKey: string | null; source: { file?: string } | null }>,
): Array<{ path: string; memories: string[] }> {
  const byPath = new Map<string, string[]>();
  for (const memory of memories) {
    const key = memory.conflictKey?.match(/^code:(?:file|config):(.+)$|^code:symbol:(.+?)#/);
    const file = key ? (key[1] ?? key[2]) : memory.source?.file;
    if (!file) continue;
    const list = byPath.get(file) ?? [];
    list.push(memory.id);
    byPath.set(file, list);
  }
  return [...byPath].map(([path, ids]) => ({ path, memories: ids }));
}

/**
 * The repo map's ranking personalised by this query: PageRank restarting at the files and
 * identifiers the query names and at the code channel's best files, so the walk spreads from what
 * the question is about instead of returning the same central files for every query.
 */
function mapRanking(
  owner: object,
  r: Parameters<typeof referenceGraphOf>[1],
  query: string,
  code: readonly CodeFileHit[],
  seeds: number,
  depth: number,
): Array<{ path: string; score: number }> {
  const graph = referenceGraphOf(owner, r);
  if (graph.paths.length === 0) return [];
  const mentions = mentionsIn(query, graph);
  const seeded = new Set(mentions.files);
  for (const hit of code.slice(0, seeds)) {
    const node = graph.nodeOf.get(hit.path);
    if (node !== undefined) seeded.add(node);
  }
  const ranking = rankRepository(graph, { files: [...seeded], identifiers: mentions.identifiers });
  return [...graph.paths.keys()]
    .sort((a, b) => ranking.files[b]! - ranking.files[a]!)
    .slice(0, depth)
    .map((node) => ({ path: graph.paths[node]!, score: round(ranking.files[node]!) }));
}

function round(value: number): number {
  return Number(value.toPrecision(4));
}

function roundAll<K extends string>(values: Partial<Record<K, number>>): Partial<Record<K, number>> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, round(v as number)])) as Partial<
    Record<K, number>
  >;
}
