import type { Memory } from '../memory/types';
import { allForIds } from '../store/idLists';
import type { SqlReader } from '../store/sqlAccess';
import { FADED_RULE, shelfOf } from './fadedSessions';

/**
 * Consolidation's clusters of relevant memories (issue 21, section 3.2): union-find over the
 * candidates of one shelf (scope and agent) that share a telling entity (seed 000), refined by
 * embedding similarity where the memories have vectors (seed 003: cosine > 0.8):
 * - two members that share an entity stay together only when they are similar, or when either has
 *   no vector (then the entity alone decides, as without vectors);
 * - two members similar enough are joined although they share no entity.
 * With no vector among the candidates, the clusters are the entity clusters, unchanged.
 *
 * Bounded so that a consolidated memory stands for one coherent thing:
 * - a shared entity joins members of one session only (memories without a session count as one):
 *   a name or a date recurring in unrelated conversations chained them into one cluster of
 *   hundreds (212 members, a 32,687-character gist on LongMemEval). Across sessions only
 *   similarity joins (the same topic, not the same word);
 * - a cluster larger than `maxMembers` is cut, in time order, into near-equal parts (faded
 *   sessions are cut at the same size, fadedSessions.ts).
 *
 * Bounded so that a large store costs linear time: a member is compared with the `entityLookback`
 * members before it that share the entity, and with the `joinWindow` candidates of its shelf
 * written before it (candidates are in time order).
 */
export const SIMILARITY_RULE = { minCosine: 0.8, entityLookback: 50, joinWindow: 100 };
export const CLUSTER_RULE = { maxMembers: FADED_RULE.maxMembers };

export function candidateClusters(
  candidates: readonly Memory[],
  links: ReadonlyMap<string, readonly number[]>,
  telling: (entityId: number) => boolean,
  vectors: ReadonlyMap<string, Float32Array>,
): Memory[][] {
  const parent = new Map(candidates.map((m) => [m.id, m.id]));
  const find = (id: string): string => {
    let root = id;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(id, root);
    return root;
  };
  const union = (a: string, b: string) => parent.set(find(a), find(b));
  const similar = (a: Memory, b: Memory) => {
    const [x, y] = [vectors.get(a.id), vectors.get(b.id)];
    return x !== undefined && y !== undefined && cosine(x, y) > SIMILARITY_RULE.minCosine;
  };
  const linked = candidates.filter((m) => (links.get(m.id) ?? []).length > 0);
  const sharing = new Map<string, Memory[]>();
  for (const m of linked)
    for (const entity of (links.get(m.id) ?? []).filter(telling)) {
      const key = `${shelfOf(m)}\u0000${m.session ?? ''}\u0000${entity}`;
      let list = sharing.get(key);
      if (!list) sharing.set(key, (list = []));
      list.push(m);
    }
  for (const members of sharing.values()) {
    // One member without a vector is joined to every other by the entity: the whole list is one.
    if (vectors.size === 0 || members.some((m) => !vectors.has(m.id))) {
      for (const m of members.slice(1)) union(m.id, members[0]!.id);
      continue;
    }
    members.forEach((m, i) => {
      for (const other of members.slice(Math.max(0, i - SIMILARITY_RULE.entityLookback), i))
        if (similar(m, other)) union(m.id, other.id);
    });
  }
  if (vectors.size > 0) {
    const shelves = new Map<string, Memory[]>();
    for (const m of linked.filter((c) => vectors.has(c.id))) {
      let list = shelves.get(shelfOf(m));
      if (!list) shelves.set(shelfOf(m), (list = []));
      list.push(m);
    }
    for (const members of shelves.values())
      members.forEach((m, i) => {
        for (const other of members.slice(Math.max(0, i - SIMILARITY_RULE.joinWindow), i))
          if (find(m.id) !== find(other.id) && similar(m, other)) union(m.id, other.id);
      });
  }
  const clusters = new Map<string, Memory[]>();
  for (const m of linked) {
    const root = find(m.id);
    let cluster = clusters.get(root);
    if (!cluster) clusters.set(root, (cluster = []));
    cluster.push(m);
  }
  return [...clusters.values()].flatMap((cluster) => inParts(cluster, CLUSTER_RULE.maxMembers));
}

/** A cluster cut, in its (time) order, into the fewest near-equal parts of at most `max` members. */
export function inParts<T>(members: readonly T[], max: number): T[][] {
  const parts = Math.ceil(members.length / max);
  const size = Math.ceil(members.length / Math.max(1, parts));
  return Array.from({ length: parts }, (_, i) => members.slice(i * size, (i + 1) * size));
}

/**
 * The stored vectors of these memories' current text, of the model that embedded most of them (a
 * store holds one model's vectors, or two while it changes model: vectors of two models are never
 * compared). Empty when none has a vector.
 */
export function candidateVectors(reader: SqlReader, ids: readonly string[]): Map<string, Float32Array> {
  const rows = allForIds<{ memoryId: string; model: string; vector: Uint8Array }>(
    reader,
    (marks) =>
      `SELECT d.memory_id AS memoryId, v.model AS model, v.vector AS vector FROM memory_docs d
       JOIN memory_vectors v ON v.doc = d.doc
       JOIN memories m ON m.id = d.memory_id AND m.superseded_at IS NULL AND m.content_hash = v.content_hash
       WHERE d.memory_id IN (${marks})`,
    ids,
  );
  const perModel = new Map<string, number>();
  for (const row of rows) perModel.set(row.model, (perModel.get(row.model) ?? 0) + 1);
  const model = [...perModel].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
  return new Map(
    rows
      .filter((row) => row.model === model)
      .map((row) => [
        row.memoryId,
        new Float32Array(
          row.vector.buffer.slice(row.vector.byteOffset, row.vector.byteOffset + row.vector.byteLength),
        ),
      ]),
  );
}

/** Cosine similarity; the providers store unit vectors, but a stored vector is not trusted to be one. */
function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
