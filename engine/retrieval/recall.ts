import { invalidInput } from '../errors';
import { isVisible } from '../memory/visibility';
import type { Viewer } from '../memory/visibility';
import type { Layer, Memory } from '../memory/types';
import { cachedEntityByAlias, cachedSessionMembers } from './storeCounts';
import type { RecallSources } from './recallSources';
import { lexicallyMatched, selectiveSeeds } from './entitySeeds';
import { boostCeiling, boostsFor } from './boosts';
import { rankPool } from './rankPool';
import { fullMemories, rankingRows } from './candidateRows';
import type { Boosts } from './boosts';
import { CHANNEL_WEIGHTS, CHANNELS } from './channelWeights';
import type { ChannelName, FusedChannel } from './channelWeights';
import type { DenseSearcher } from './denseSearch';
import { scopesFor } from './entityWeights';
import { reciprocalRankFusion } from './fusion';
import type { ChannelResult } from './fusion';
import { graphCandidates, graphScoresFor } from './graphChannel';
import { withSessionNeighbours } from './neighbourChannel';
import type { PropagatedHits } from './neighbourChannel';
import type { SqlReader } from '../store/sqlAccess';
import { cachedSessionsOf, searchLexicalInMemory } from '../lexical/liveLexicalIndex';
import { memoryBiasedPageRank } from './pagerank';
import { scoredTop } from './scoredTop';
import { analyzeQuery, asksForAdvice } from './queryAnalysis';
import { boundedQuery } from './queryLimit';
import type { Intent } from './queryAnalysis';
import type { CodeChannelHit } from './recallSources';

export interface RecallOptions {
  query: string;
  /** @default 10 */
  k?: number;
  /** Channels to use. @default every available channel */
  channels?: ChannelName[];
  layer?: Layer;
  /** Include invalidated and superseded memories. @default false */
  includeInactive?: boolean;
  /** Recall what Engram knew at this time (transaction time, ms). */
  asOf?: number;
  session?: string;
  /** Who reads: another agent's private memories are never candidates (visibility.ts). */
  viewer?: Viewer;
  /** Return the trace: per-channel ranks, boosts, dropped candidates. @default false */
  explain?: boolean;
  /**
   * Record the access (a ledger event, access counters, entity weights). False for read-only
   * callers, such as the MCP tools that declare readOnlyHint. @default true
   */
  noteAccess?: boolean;
  /** PageRank blend of query entities vs accumulated entity weights. @default {query: 0.7, memory: 0.3} */
  pagerankBlend?: { query: number; memory: number };
}

export interface RecallHit {
  memory: Memory;
  score: number;
  channels: Partial<Record<ChannelName, { rank: number; score: number }>>;
  boosts?: Boosts;
}

export interface RecallTrace {
  intent: Intent;
  terms: string[];
  entities: string[];
  channels: Array<{ name: ChannelName; weight: number; candidates: number; ms: number }>;
  dropped: Array<{ memoryId: string; reason: string; fused: number }>;
  /** Per hit the code channel ranked: its file, role prior, the fields that matched, its best symbols. */
  code?: Array<Omit<CodeChannelHit, 'score'>>;
  totalMs: number;
}

export interface RecallResult {
  query: string;
  hits: RecallHit[];
  trace?: RecallTrace;
}

/** Candidates each channel contributes, relative to k. */
const DEPTH = 5;
const MIN_DEPTH = 50;

/** The most memories one recall returns: the one limit of `k` for every host. */
export const MAX_RECALL_K = 1000;

export async function recall(
  sources: RecallSources,
  options: RecallOptions,
  dense?: DenseSearcher,
): Promise<RecallResult> {
  const { store } = sources;
  const started = performance.now();
  const query = boundedQuery('query', options.query).trim();
  if (query === '') throw invalidInput('query must not be empty');
  const k = options.k ?? 10;
  if (!Number.isInteger(k) || k < 1 || k > MAX_RECALL_K)
    throw invalidInput(`k must be 1 to ${MAX_RECALL_K}; got ${k}`);
  const wanted = new Set(options.channels ?? CHANNELS);
  const depth = Math.max(MIN_DEPTH, k * DEPTH);
  const statuses =
    options.includeInactive || options.asOf !== undefined
      ? ['active', 'invalidated', 'superseded']
      : ['active'];
  const now = store.clock();

  const analysis = store.read((r) =>
    analyzeQuery(r, query, (alias) => cachedEntityByAlias(store.db, r, alias)),
  );
  const weights = CHANNEL_WEIGHTS[analysis.intent];
  const timings: RecallTrace['channels'] = [];
  const results: ChannelResult[] = [];
  const run = (name: FusedChannel, fn: () => Array<{ memoryId: string; score: number }>, confidence = 1) => {
    if (!wanted.has(name)) return;
    // The store's own lexical search ran before (it is asynchronous): its wait counts here.
    const t = performance.now() - (name === 'lexical' ? lexicalWaited : 0);
    const ranked = fn();
    const weight = weights[name] * confidence;
    results.push({ name, weight, ranked });
    timings.push({
      name,
      weight: Math.round(weight * 1000) / 1000,
      candidates: ranked.length,
      ms: round(performance.now() - t),
    });
  };

  // Session neighbours of the lexical hits score a share of theirs (see neighbourChannel.ts): not
  // with asOf, whose session lists would be today's.
  const propagate = wanted.has('neighbours') && options.asOf === undefined;
  let viaNeighbour: PropagatedHits['via'] = new Map();
  const { storeSearch } = sources;
  const lexicalStarted = performance.now();
  const fromStore =
    storeSearch && wanted.has('lexical')
      ? await storeSearch.lexical(query, depth, statuses, options.viewer)
      : undefined;
  const lexicalWaited = performance.now() - lexicalStarted;
  run('lexical', () =>
    store.read((r) => {
      const found = fromStore ?? searchLexicalInMemory(store.db, r, query, depth, statuses);
      if (!propagate) return found;
      const propagated = withSessionNeighbours(
        r,
        found,
        depth,
        (s) => cachedSessionMembers(store.db, r, s),
        (ids) => cachedSessionsOf(store.db, r, ids),
      );
      viaNeighbour = propagated.via;
      return propagated.ranked;
    }),
  );
  // The code itself answers a question about code: its words, names and paths, not only the
  // memories derived from it (measured on real issues in docs/benchmarks.md, "Codebase layer").
  const codeHits = new Map<string, CodeChannelHit>();
  const { searchCode } = sources;
  if (analysis.intent === 'where-in-code' && searchCode && options.asOf === undefined)
    run('code', () => {
      const found = searchCode(query, depth);
      for (const hit of found) codeHits.set(hit.memoryId, hit);
      return found;
    });
  let denseEqual = false;
  if (wanted.has('dense') && dense) {
    const t = performance.now();
    const found = await dense.search(query, depth, { statuses, viewer: options.viewer });
    // A natural-language sentence encoder does not read code (USE-lite: CoSQA MRR 0.04 against
    // BM25's 0.31): a supporting model leaves codebase memories to the text channels.
    const ranked = dense.supportOnly ? store.read((r) => withoutCodebase(r, found)) : found;
    // A request for advice is answered by what the user said they like or do, seldom in the
    // question's words: there even a supporting model ranks as an equal of the lexical channel.
    denseEqual = dense.supportOnly === true && asksForAdvice(query);
    // A supporting model's fill-ins (see supportOnly) enter below the text matches they follow.
    const weight = denseEqual
      ? weights.lexical
      : weights.dense * (dense.supportOnly ? SUPPORTING_DENSE_SHARE : 1);
    results.push({ name: 'dense', weight, ranked });
    timings.push({
      name: 'dense',
      weight,
      candidates: ranked.length,
      ms: round(performance.now() - t),
    });
  }
  const selective =
    analysis.entities.size === 0
      ? new Map<number, number>()
      : store.read((r) => selectiveSeeds(store.db, r, analysis.entities));
  // With a text channel, an entity the query's own words match adds no evidence of its own.
  const matched =
    results.length > 0
      ? store.read((r) => lexicallyMatched(store.db, r, selective, analysis.terms))
      : new Set();
  const seeds = new Map([...selective].filter(([id]) => !matched.has(id)));
  if (seeds.size > 0) {
    // The graph channels are as trustworthy as the query's most selective entity: a file path
    // named in one memory counts fully, a name found in a third of all memories barely.
    const confidence = Math.max(...seeds.values()) / Math.max(...[...analysis.entities.values(), 1e-9]);
    // With a text channel, graph scores matter only for the memories it found (support-only).
    const textFound = new Set(results.flatMap((r) => r.ranked.map((hit) => hit.memoryId)));
    run(
      'graph',
      () =>
        store.read((r) =>
          results.length > 0 ? graphScoresFor(r, seeds, [...textFound]) : graphCandidates(r, seeds, depth),
        ),
      confidence,
    );
    // PageRank's list is cut to what supportOnly (below) keeps of it when a text channel ran: the
    // found memories (a superset: a supporting dense channel's too) among its best `depth`.
    const filtered = results.some((r) => r.name !== 'dense' || !dense?.supportOnly);
    run(
      'ppr',
      () => pagerankCandidates(sources, seeds, options, now, depth, filtered ? textFound : undefined),
      confidence,
    );
  }

  const support = new Set(SUPPORT_CHANNELS);
  if (dense?.supportOnly && !denseEqual) support.add('dense');
  const fused = reciprocalRankFusion(supportOnly(results, support, k));
  const pool = fused.slice(0, Math.max(k * 3, 30));
  const dropped: RecallTrace['dropped'] = [];
  const ranked: RankedCandidate[] = [];
  // The whole rows the pool's reads fetched (candidates whose ranking fields were not known yet).
  const whole = new Map<string, Memory>();
  const boostContext = { intent: analysis.intent, now, session: options.session };
  rankPool(
    pool,
    k,
    boostCeiling(boostContext),
    // The ranking fields only, of the current rows or with asOf those of that time: whole rows
    // are read for the k returned (below).
    (ids) => store.read((r) => rankingRows(store.db, r, ids, whole, options.asOf)),
    (candidate, memory) => {
      const reason = memory
        ? exclusion(memory, options)
        : options.asOf !== undefined
          ? 'not known at asOf'
          : 'not current';
      // Hidden from this reader: not even its id goes into the trace.
      if (memory && !isVisible(options.viewer, memory)) return undefined;
      if (!memory || reason) {
        dropped.push({ memoryId: candidate.memoryId, reason: reason ?? 'filtered', fused: candidate.fused });
        return undefined;
      }
      const boosts = boostsFor(memory, boostContext);
      const neighbour = viaNeighbour.get(memory.id);
      const score = candidate.fused * boosts.total;
      ranked.push({
        id: memory.id,
        score,
        // A lexical rank earned next to a match, not by the memory's own words, says so.
        channels: neighbour
          ? { ...candidate.channels, neighbours: { rank: neighbour.rank, score: neighbour.score } }
          : candidate.channels,
        ...(options.explain ? { boosts } : {}),
      });
      return score;
    },
    options.explain,
  );
  ranked.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  for (const extra of ranked.slice(k))
    dropped.push({ memoryId: extra.id, reason: `ranked below top ${k}`, fused: extra.score });
  const top = withWholeRows(sources, ranked.slice(0, k), whole, options.asOf);

  if (options.noteAccess !== false) noteRecallAccess(sources, query, top, options.session);
  const result: RecallResult = { query, hits: top };
  if (options.explain) {
    result.trace = {
      intent: analysis.intent,
      terms: analysis.terms,
      entities: analysis.entityNames,
      channels: timings,
      dropped,
      ...(codeHits.size > 0
        ? {
            code: top.flatMap((hit) => {
              const found = codeHits.get(hit.memory.id);
              if (!found) return [];
              const { memoryId, path, role, fields, prior, symbols } = found;
              return [{ memoryId, path, role, fields, prior, symbols }];
            }),
          }
        : {}),
      totalMs: round(performance.now() - started),
    };
  }
  return result;
}

/** A candidate that passed the filters, with its boosted score, before its whole row is read. */
interface RankedCandidate extends Omit<RecallHit, 'memory'> {
  id: string;
}

/** The returned candidates as hits, each with its whole row (read in the same synchronous turn if not yet). */
function withWholeRows(
  { store }: RecallSources,
  ranked: readonly RankedCandidate[],
  whole: ReadonlyMap<string, Memory>,
  asOf: number | undefined,
): RecallHit[] {
  const unread = ranked.filter((c) => !whole.has(c.id)).map((c) => c.id);
  const rows =
    unread.length === 0 ? new Map<string, Memory>() : store.read((r) => fullMemories(r, unread, asOf));
  return ranked.map(({ id, ...hit }) => ({ memory: whole.get(id) ?? rows.get(id)!, ...hit }));
}

/** The share of its intent weight a supporting (weak) dense model's fill-ins get. */
const SUPPORTING_DENSE_SHARE = 0.3;

/** Channels whose evidence alone is too weak to bring a memory in: they only re-rank. */
const SUPPORT_CHANNELS = new Set(['graph', 'ppr']);

/**
 * Entity links say a memory is about something the query names, not that it answers the query:
 * measured on LoCoMo, LongMemEval and CoSQA, candidates found only through the graph pushed better
 * text matches out of the top ten. So graph and PageRank (and a weak dense model, see
 * MemoryVectors.supportOnly) rank only memories that a text channel found too, unless there is no
 * text channel at all.
 */
function supportOnly(results: ChannelResult[], support: ReadonlySet<string>, k: number): ChannelResult[] {
  const textual = results.filter((r) => !support.has(r.name));
  if (textual.length === 0) return results;
  const found = new Set(textual.flatMap((r) => r.ranked.map((hit) => hit.memoryId)));
  // A supporting dense channel only fills the list when the text channels found fewer than k
  // (a paraphrase with no shared word is what embeddings are for).
  let room = Math.max(0, k - found.size);
  return results.map((r) => {
    if (!support.has(r.name)) return r;
    const ranked = r.ranked.filter((hit) => {
      // A supporting dense model does not re-rank text matches either: measured, its order of
      // them lowered LoCoMo recall@10 (0.666 -> 0.652) and LongMemEval recall_any@5 (0.843 -> 0.830).
      if (r.name === 'dense') {
        if (found.has(hit.memoryId) || room === 0) return false;
        room--;
        return true;
      }
      return found.has(hit.memoryId);
    });
    return { ...r, ranked };
  });
}

function pagerankCandidates(
  { store, graph: graphCache, entityWeights }: RecallSources,
  queryEntities: Map<number, number>,
  options: RecallOptions,
  now: number,
  depth: number,
  /** The memories the text channels found, when there are any: PageRank only re-ranks those. */
  only: ReadonlySet<string> | undefined,
): Array<{ memoryId: string; score: number }> {
  return store.read((r) => {
    const graph = graphCache.get(r, store.db.lastSeq, now);
    const toDense = (ids: Map<number, number>) => {
      const seeds = new Map<number, number>();
      for (const [id, w] of ids) {
        const index = graph.entityIndex.get(id);
        if (index !== undefined && w > 0) seeds.set(index, w);
      }
      return seeds;
    };
    const querySeeds = toDense(queryEntities);
    if (querySeeds.size === 0) return [];
    const memorySeeds = toDense(entityWeights.read(r, scopesFor(options.session), now));
    const scores = memoryBiasedPageRank(graph, querySeeds, memorySeeds, options.pagerankBlend);
    return scoredTop(scores, graph.memoryIds, depth, only);
  });
}

function exclusion(memory: Pick<Memory, 'layer' | 'status'>, options: RecallOptions): string | undefined {
  if (options.layer !== undefined && memory.layer !== options.layer) return `layer ${memory.layer}`;
  if (memory.status === 'active') return undefined;
  if (options.asOf !== undefined) return `status ${memory.status} at asOf`;
  if (options.includeInactive && (memory.status === 'invalidated' || memory.status === 'superseded'))
    return undefined;
  return `status ${memory.status}`;
}

/** Accesses feed importance (event ledger) and the memory bias of PageRank (entity weights). */
export function noteRecallAccess(
  { store, entityWeights }: RecallSources,
  query: string,
  hits: RecallHit[],
  session: string | undefined,
): void {
  const now = store.clock();
  store.noteRead({
    type: 'recall',
    session: session ?? null,
    data: { query, memoryIds: hits.map((h) => h.memory.id) },
  });
  if (hits.length === 0) return;
  const ids = hits.slice(0, 5).map((h) => h.memory.id);
  const entityIds = store.read((r) =>
    r
      .all<{ id: number }>(
        `SELECT DISTINCT entity_id AS id FROM memory_entities WHERE memory_id IN (${ids.map(() => '?').join(', ')})`,
        ids,
      )
      .map((row) => row.id),
  );
  entityWeights.note(scopesFor(session), entityIds, 1, now);
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

function withoutCodebase<T extends { memoryId: string }>(reader: SqlReader, hits: T[]): T[] {
  if (hits.length === 0) return hits;
  const code = new Set(
    reader
      .all<{ id: string }>(
        `SELECT id FROM memories WHERE superseded_at IS NULL AND layer = 'codebase' AND id IN (${hits.map(() => '?').join(', ')})`,
        hits.map((h) => h.memoryId),
      )
      .map((row) => row.id),
  );
  return hits.filter((h) => !code.has(h.memoryId));
}
