import type { MemoryStore } from '../memory/memoryStore';
import { CURRENT_SELECT, reviseVersion, toMemory } from '../memory/rows';
import type { MemoryRow } from '../memory/rows';
import { currentMemory } from '../memory/memoryQueries';
import type { Memory } from '../memory/types';
import { allForIds } from '../store/idLists';
import type { SqlReader } from '../store/sqlAccess';
import { lifecycleFacts } from './lifecycleFacts';
import { NOT_A_CARD } from './storedPeerCards';

/**
 * Consolidation ("sleep", issue 21 section 3; seed 000's four steps): working and episodic
 * memories that proved relevant (composite importance >= 0.5, recalled twice, linked to
 * entities) are clustered by the entities they share (union-find), and each cluster of at least
 * two becomes one semantic memory: an extractive summary (the sentences that cover the cluster's
 * entities, in time order, within a size limit), the members' highest importance, their tags,
 * and the member ids as provenance. The members are superseded by it: out of recall, still in
 * history. Never across private scopes of different agents.
 */
export const CONSOLIDATION_RULE = {
  minImportance: 0.5,
  minAccesses: 2,
  minClusterSize: 2,
  maxSummaryChars: 800,
};
/** An entity linked to more than this share of the candidates says nothing about what goes together. */
const MAX_ENTITY_SHARE = 0.2;

export interface ConsolidationCluster {
  members: string[];
  entities: string[];
  summary: string;
  importance: number;
  /** min(1, size / 5): larger clusters are backed by more evidence (seed 000). */
  confidence: number;
}

export function planConsolidation(reader: SqlReader, now: number): ConsolidationCluster[] {
  const rows = reader
    .all<MemoryRow>(
      `${CURRENT_SELECT} WHERE m.superseded_at IS NULL AND m.status = 'active'
       AND m.layer IN ('working', 'episodic') AND ${NOT_A_CARD} AND coalesce(s.access_count, 0) >= ? ORDER BY m.valid_from, m.id`,
      [CONSOLIDATION_RULE.minAccesses],
    )
    .map(toMemory);
  const facts = new Map(lifecycleFacts(reader, rows, now).map((f) => [f.memoryId, f]));
  const candidates = rows.filter(
    (m) => (facts.get(m.id)?.importance.score ?? 0) >= CONSOLIDATION_RULE.minImportance,
  );
  const links = entityLinks(
    reader,
    candidates.map((m) => m.id),
  );
  const names = entityNames(reader, [...new Set([...links.values()].flat())]);
  const usedBy = new Map<number, number>();
  for (const ids of links.values()) for (const id of ids) usedBy.set(id, (usedBy.get(id) ?? 0) + 1);
  const telling = (id: number) =>
    candidates.length < 10 || (usedBy.get(id) ?? 0) <= MAX_ENTITY_SHARE * candidates.length;
  // Union-find: memories of one shelf (scope and agent) that share a telling entity.
  const parent = new Map(candidates.map((m) => [m.id, m.id]));
  const find = (id: string): string => {
    let root = id;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(id, root);
    return root;
  };
  const firstWith = new Map<string, string>();
  for (const m of candidates)
    for (const entity of (links.get(m.id) ?? []).filter(telling)) {
      const key = `${shelfOf(m)}\u0000${entity}`;
      const other = firstWith.get(key);
      if (other === undefined) firstWith.set(key, m.id);
      else parent.set(find(m.id), find(other));
    }
  const clusters = new Map<string, Memory[]>();
  for (const m of candidates) {
    if ((links.get(m.id) ?? []).length === 0) continue;
    const root = find(m.id);
    clusters.set(root, [...(clusters.get(root) ?? []), m]);
  }
  return [...clusters.values()]
    .filter((members) => members.length >= CONSOLIDATION_RULE.minClusterSize)
    .map((members) => {
      const entityIds = [...new Set(members.flatMap((m) => links.get(m.id) ?? []))].filter(telling);
      const entityWords = entityIds.map((id) => names.get(id) ?? '').filter((n) => n !== '');
      return {
        members: members.map((m) => m.id),
        entities: entityWords,
        summary: extractiveSummary(members, entityWords),
        importance: Math.max(...members.map((m) => m.importance)),
        confidence: Math.min(1, members.length / 5),
      };
    });
}

/** Writes each cluster's memory and supersedes its members by it, in one transaction. */
export function applyConsolidation(store: MemoryStore, clusters: readonly ConsolidationCluster[]): string[] {
  return store.write((tx, now) => {
    const made: string[] = [];
    for (const cluster of clusters) {
      const members = cluster.members.map((id) => currentMemory(tx, id));
      if (members.some((m) => m.status !== 'active')) continue;
      const result = store.remember(
        {
          content: cluster.summary,
          context: `Consolidated from ${members.length} memories (confidence ${cluster.confidence}): ${cluster.members.join(', ')}`,
          layer: 'semantic',
          kind: 'summary',
          tags: [...new Set(members.flatMap((m) => m.tags))],
          importance: cluster.importance,
          trust: 'consolidation',
          dedupe: false,
        },
        { agent: 'engram-lifecycle', trust: 'consolidation' },
      );
      const id = result.memory.id;
      for (const member of members)
        reviseVersion(
          tx,
          member,
          { status: 'superseded', statusReason: `consolidated into ${id}`, supersededBy: id },
          'superseded',
          now,
        );
      store.ledger.append(tx, now, {
        type: 'consolidate',
        memoryId: id,
        agent: 'engram-lifecycle',
        data: { members: cluster.members, confidence: cluster.confidence },
      });
      made.push(id);
    }
    return made;
  });
}

/**
 * The sentences that cover the cluster's entities best, greedily (each adds the most entities not
 * yet covered), until all are covered or the size limit; kept in the members' time order.
 */
export function extractiveSummary(members: readonly Memory[], entities: readonly string[]): string {
  const sentences = members.flatMap((m, order) =>
    m.content
      .split(/(?<=[.!?])\s+/)
      .map((text) => text.trim())
      .filter((text) => text !== '')
      .map((text, i) => ({ text, order: order * 1000 + i })),
  );
  const mentions = (text: string) => entities.filter((e) => text.toLowerCase().includes(e.toLowerCase()));
  const covered = new Set<string>();
  const chosen: typeof sentences = [];
  let length = 0;
  for (;;) {
    let best: (typeof sentences)[number] | undefined;
    let gain = 0;
    for (const s of sentences) {
      if (chosen.includes(s) || length + s.text.length > CONSOLIDATION_RULE.maxSummaryChars) continue;
      const added = mentions(s.text).filter((e) => !covered.has(e)).length;
      if (added > gain) [best, gain] = [s, added];
    }
    if (!best) break;
    chosen.push(best);
    length += best.text.length + 1;
    for (const e of mentions(best.text)) covered.add(e);
  }
  if (chosen.length === 0) chosen.push(sentences[0]!);
  return chosen
    .sort((a, b) => a.order - b.order)
    .map((s) => s.text)
    .join(' ');
}

function shelfOf(m: Memory): string {
  return m.scope === 'shared' ? 'shared' : `${m.scope}:${m.agent ?? ''}`;
}

function entityLinks(reader: SqlReader, ids: readonly string[]): Map<string, number[]> {
  const links = new Map<string, number[]>();
  for (const row of allForIds<{ memoryId: string; entityId: number }>(
    reader,
    (marks) =>
      `SELECT memory_id AS memoryId, entity_id AS entityId FROM memory_entities WHERE memory_id IN (${marks})`,
    ids,
  ))
    links.set(row.memoryId, [...(links.get(row.memoryId) ?? []), row.entityId]);
  return links;
}

function entityNames(reader: SqlReader, ids: readonly number[]): Map<number, string> {
  const rows = allForIds<{ id: number; name: string }>(
    reader,
    (marks) => `SELECT id, name FROM entities WHERE id IN (${marks})`,
    ids,
  );
  return new Map(rows.map((row) => [row.id, row.name]));
}
