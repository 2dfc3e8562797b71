import type { Trust } from '../memory/types';
import { allForIds } from '../store/idLists';
import type { SqlReader } from '../store/sqlAccess';
import type { DenseSearcher } from './denseSearch';
import { noteRecallAccess, recall } from './recall';
import type { RecallHit, RecallOptions, RecallResult, RecallTrace } from './recall';
import type { RecallSources } from './recallSources';
import { cachedHoldsConsolidatedMembers } from './storeCounts';

/** How deep the history-wide pass ranks, to find the members of the consolidated hits. */
const DETAIL_DEPTH = 100;
/**
 * How deep the first pass looks for consolidated hits to open, whatever `k`: a gist quoting many
 * turns ranks below the one turn that answers. Chosen on the development half of the lifecycle
 * bench (docs/benchmarks.md): depth 10 / 20 / 30 / 40 / 60 put recall@10 with detail 3.8 / 1.6 /
 * 0.7 below, 0.8 / 0.1 above recall before consolidation.
 */
const CONSOLIDATED_DEPTH = 40;
/** The trusts consolidation writes with: an extractive gist, or a model-written summary. */
const CONSOLIDATED: ReadonlySet<Trust> = new Set<Trust>(['consolidation', 'model']);

/**
 * Which consolidated hits open onto their members: `all` (recall's `detail: true`) every one with
 * a member that matches; `better` (recall's default) those with a member that ranks above the
 * consolidated memory itself for the query, the evidence the caller would otherwise not see.
 */
export type DrillDown = 'all' | 'better';

/**
 * Recall with detail (seed 003's drill-down, issue 21 section 3): consolidation keeps recall
 * small by replacing episodes with one memory that quotes their informative sentences; in place of
 * such a memory, those of its members (superseded, in history) that answer the query. First the
 * active memories are ranked as usual, at least `CONSOLIDATED_DEPTH` deep; then, when the store
 * holds consolidated members, the whole history is ranked for the same query (members and
 * consolidated memories alike) and kept to the first pass's other hits, the members of the
 * consolidated hits that open (see DrillDown) and the members that rank in the top `k` on their
 * own (see strayMembers), in the history-wide order except that an opened hit's members come in
 * its own place (best first), cut to `k`. A consolidated hit that does not open keeps its
 * history-wide place (`better`); with `all`, one none of whose members ranks keeps its place after
 * them. The access is noted for what is returned.
 */
export async function recallWithDetail(
  sources: RecallSources,
  options: RecallOptions,
  dense?: DenseSearcher,
  open: DrillDown = 'all',
): Promise<RecallResult> {
  // A store where nothing was consolidated recalls as it always did (the deeper first pass below
  // reaches more candidates, which moves the graph channels' ranks a little).
  const { store } = sources;
  if (!store.read((r) => cachedHoldsConsolidatedMembers(store.db, r, holdsConsolidatedMembers)))
    return recall(sources, options, dense);
  const k = options.k ?? 10;
  const first = await recall(
    sources,
    { ...options, k: Math.max(k, CONSOLIDATED_DEPTH), noteAccess: false },
    dense,
  );
  const members = sources.store.read((r) =>
    consolidatedMembers(
      r,
      first.hits.filter((h) => CONSOLIDATED.has(h.memory.trust)).map((h) => h.memory.id),
    ),
  );
  const result = await openMembers(sources, options, dense, first, members, open);
  const hits = result.hits.slice(0, k);
  if (options.noteAccess !== false) noteRecallAccess(sources, first.query, hits, options.session);
  return { ...result, hits, ...(result.trace ? { trace: cutTrace(result.trace, result.hits, k) } : {}) };
}

/** The trace of the deeper first pass as the caller's `k` would have it: the hits past k dropped. */
function cutTrace(trace: RecallTrace, hits: readonly RecallHit[], k: number): RecallTrace {
  const below = /^ranked below top \d+$/;
  const dropped = [
    ...trace.dropped.filter((d) => !below.test(d.reason)),
    ...hits.slice(k).map((h) => ({ memoryId: h.memory.id, reason: `ranked below top ${k}`, fused: h.score })),
    ...trace.dropped
      .filter((d) => below.test(d.reason))
      .map((d) => ({ ...d, reason: `ranked below top ${k}` })),
  ];
  return { ...trace, dropped };
}

async function openMembers(
  sources: RecallSources,
  options: RecallOptions,
  dense: DenseSearcher | undefined,
  first: RecallResult,
  members: ReadonlyMap<string, string[]>,
  open: DrillDown,
): Promise<RecallResult> {
  const history = await recall(
    sources,
    { ...options, k: DETAIL_DEPTH, includeInactive: true, noteAccess: false, explain: false },
    dense,
  );
  const rankOf = new Map(history.hits.map((h, i) => [h.memory.id, i]));
  const ownerOf = new Map<string, string>();
  for (const [owner, ids] of members) {
    const best = Math.min(...ids.map((id) => rankOf.get(id) ?? Infinity));
    const opens = open === 'all' || best < (rankOf.get(owner) ?? Infinity);
    if (opens) for (const id of ids) ownerOf.set(id, owner);
  }
  const opened = new Set(ownerOf.values());
  const strays = sources.store.read((r) => strayMembers(r, history.hits.slice(0, options.k ?? 10), members));
  // With `all`, a consolidated hit is never shown among the others: its members stand for it.
  const plain = new Set(
    first.hits
      .filter((h) => !(open === 'all' ? members.has(h.memory.id) : opened.has(h.memory.id)))
      .map((h) => h.memory.id),
  );
  // An opened consolidated memory gives its own place to its members, best first: the query found
  // the episodes it stands for, so the turns that answer come there, not wherever they rank alone
  // among the whole history (a member that ranks higher on its own keeps its higher place).
  const placeOf = (id: string) => {
    const owner = ownerOf.get(id);
    return Math.min(rankOf.get(id)!, owner === undefined ? Infinity : (rankOf.get(owner) ?? Infinity));
  };
  const detailed = history.hits
    .filter((h) => plain.has(h.memory.id) || ownerOf.has(h.memory.id) || strays.has(h.memory.id))
    .sort(
      (a, b) =>
        placeOf(a.memory.id) - placeOf(b.memory.id) || rankOf.get(a.memory.id)! - rankOf.get(b.memory.id)!,
    );
  const shown = new Set(detailed.map((h) => ownerOf.get(h.memory.id) ?? h.memory.id));
  const rest: RecallHit[] = first.hits.filter((h) => !shown.has(h.memory.id));
  return { ...first, hits: [...detailed, ...rest] };
}

/**
 * The consolidated members among the history's top `k` whose consolidated memory is not among the
 * first pass's hits (`found`): a gist leaves out sentences (gist.ts) and ranks as one long text,
 * so the turn that matches best in the whole history can belong to a gist the query does not find
 * among the active memories; recall would lose it. Such a member is shown at its own rank. Nothing
 * else superseded comes back: a memory replaced through its conflict key or merged by dedup is
 * not listed by a `consolidate` event.
 */
function strayMembers(
  reader: SqlReader,
  top: readonly RecallHit[],
  found: ReadonlyMap<string, string[]>,
): Set<string> {
  const candidates = top.filter(
    (h) =>
      h.memory.status === 'superseded' && h.memory.supersededBy !== null && !found.has(h.memory.supersededBy),
  );
  if (candidates.length === 0) return new Set();
  const owners = consolidatedMembers(reader, [...new Set(candidates.map((h) => h.memory.supersededBy!))]);
  return new Set(
    candidates
      .filter((h) => owners.get(h.memory.supersededBy!)?.includes(h.memory.id) === true)
      .map((h) => h.memory.id),
  );
}

/** Whether any current episode was superseded (consolidation's members are): an index seek. */
function holdsConsolidatedMembers(reader: SqlReader): boolean {
  return (
    reader.value<number>(
      `SELECT 1 FROM memories WHERE superseded_at IS NULL AND layer IN ('working', 'episodic')
       AND status = 'superseded' LIMIT 1`,
    ) !== undefined
  );
}

/** Members of each consolidated memory, from its `consolidate` event (indexed by memory). */
function consolidatedMembers(reader: SqlReader, ids: readonly string[]): Map<string, string[]> {
  const members = new Map<string, string[]>();
  const rows = allForIds<{ memoryId: string; data: string | null }>(
    reader,
    (marks) =>
      `SELECT memory_id AS memoryId, data FROM events WHERE type = 'consolidate' AND memory_id IN (${marks})`,
    ids,
  );
  for (const row of rows) {
    const listed = parseMembers(row.data);
    if (listed.length > 0) members.set(row.memoryId, listed);
  }
  return members;
}

function parseMembers(data: string | null): string[] {
  if (!data) return [];
  try {
    const listed = (JSON.parse(data) as { members?: unknown }).members;
    return Array.isArray(listed) ? listed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}
