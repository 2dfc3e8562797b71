import { allForIds } from '../store/idLists';
import type { SqlReader } from '../store/sqlAccess';
import type { DenseSearcher } from './denseSearch';
import { recall } from './recall';
import type { RecallHit, RecallOptions, RecallResult } from './recall';
import type { RecallSources } from './recallSources';

/** How deep the history-wide pass ranks, to find the members of the consolidated hits. */
const DETAIL_DEPTH = 100;
/**
 * How deep the first pass looks for consolidated hits to open, whatever `k`: a gist quoting many
 * turns ranks below the one turn that answers. Chosen on the development half of the lifecycle
 * bench (docs/benchmarks.md): depth 10 / 20 / 30 / 40 / 60 put recall@10 with detail 3.8 / 1.6 /
 * 0.7 below, 0.8 / 0.1 above recall before consolidation.
 */
const CONSOLIDATED_DEPTH = 40;

/**
 * Recall with detail (seed 003's drill-down, issue 21 section 3): consolidation keeps recall
 * small by replacing episodes with one memory that quotes their informative sentences; a caller
 * that asks for detail gets, in place of such a memory, those of its members (superseded, in
 * history) that answer the query. First the active memories are ranked as usual, at least
 * `CONSOLIDATED_DEPTH` deep; then the whole history is ranked for the same query and kept to the
 * first pass's plain hits and the members of its consolidated hits, in the history-wide order, cut
 * to `k`. A consolidated hit none of whose members ranks keeps its place, after them.
 */
export async function recallWithDetail(
  sources: RecallSources,
  options: RecallOptions,
  dense?: DenseSearcher,
): Promise<RecallResult> {
  const k = options.k ?? 10;
  const first = await recall(sources, { ...options, k: Math.max(k, CONSOLIDATED_DEPTH) }, dense);
  const members = sources.store.read((r) =>
    consolidatedMembers(
      r,
      first.hits.filter((h) => h.memory.trust === 'consolidation').map((h) => h.memory.id),
    ),
  );
  if (members.size === 0) return first;
  const ownerOf = new Map<string, string>();
  for (const [owner, ids] of members) for (const id of ids) ownerOf.set(id, owner);
  const plain = new Set(first.hits.filter((h) => !members.has(h.memory.id)).map((h) => h.memory.id));
  const history = await recall(
    sources,
    { ...options, k: DETAIL_DEPTH, includeInactive: true, noteAccess: false, explain: false },
    dense,
  );
  const detailed = history.hits.filter((h) => plain.has(h.memory.id) || ownerOf.has(h.memory.id));
  const shown = new Set(detailed.map((h) => ownerOf.get(h.memory.id) ?? h.memory.id));
  const rest: RecallHit[] = first.hits.filter((h) => !shown.has(h.memory.id));
  return { ...first, hits: [...detailed, ...rest].slice(0, k) };
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
