import type { Layer } from '../memory/types';
import type { SqlReader } from '../store/sqlAccess';
import type { GraphEdge, GraphNode } from './graphMethods';

/**
 * Turns the nodes a graph read chose into what the Graph panel draws: their labels and counts,
 * and every relation and mention among them, in a few set-based reads (json_each lists, no
 * per-node queries).
 */

/** A node a graph read chose, with the strength of its path and its distance from the start. */
export interface Candidate {
  id: string;
  score: number;
  hops: number;
}

export const entityKey = (id: number) => `e:${id}`;
export const memoryKey = (id: string) => `m:${id}`;
export const json = (values: readonly unknown[]) => JSON.stringify(values);

const LABEL_CHARS = 60;
const TEXT_CHARS = 240;

export function payloadFor(r: SqlReader, chosen: Candidate[]): { nodes: GraphNode[]; edges: GraphEdge[] } {
  const hopsOf = new Map(chosen.map((c) => [c.id, c.hops]));
  const entityIds = chosen.filter((c) => c.id.startsWith('e:')).map((c) => Number(c.id.slice(2)));
  const memoryIds = chosen.filter((c) => c.id.startsWith('m:')).map((c) => c.id.slice(2));
  const nodes: GraphNode[] = [];
  for (const row of r.all<{ id: number; name: string; type: string; n: number }>(
    `SELECT e.id, e.name, e.type, (SELECT count(*) FROM memory_entities me WHERE me.entity_id = e.id) AS n
     FROM entities e WHERE e.id IN (SELECT value FROM json_each(?))`,
    [json(entityIds)],
  )) {
    const id = entityKey(row.id);
    nodes.push({
      id,
      kind: 'entity',
      entityId: row.id,
      label: oneLine(row.name, LABEL_CHARS),
      type: row.type,
      memoryCount: row.n,
      hops: hopsOf.get(id) ?? 0,
    });
  }
  for (const row of r.all<{ id: string; layer: Layer; kind: string; status: string; content: string }>(
    `SELECT id, layer, kind, status, substr(content, 1, ${TEXT_CHARS * 2}) AS content FROM memories
     WHERE superseded_at IS NULL AND id IN (SELECT value FROM json_each(?))`,
    [json(memoryIds)],
  )) {
    const id = memoryKey(row.id);
    nodes.push({
      id,
      kind: 'memory',
      memoryId: row.id,
      label: oneLine(row.content, LABEL_CHARS),
      text: oneLine(row.content, TEXT_CHARS),
      layer: row.layer,
      memoryKind: row.kind,
      status: row.status,
      hops: hopsOf.get(id) ?? 0,
    });
  }
  // In the order chosen (seeds, then by hop and strength): a client may draw the first ones first.
  const order = new Map(chosen.map((c, i) => [c.id, i]));
  nodes.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  const edges: GraphEdge[] = [];
  const strongest = new Map<string, GraphEdge>();
  const entityJson = json(entityIds);
  for (const row of r.all<{ s: number; t: number; type: string; strength: number }>(
    `SELECT source_id AS s, target_id AS t, type, strength FROM relations
     WHERE source_id IN (SELECT value FROM json_each(?)) AND target_id IN (SELECT value FROM json_each(?))`,
    [entityJson, entityJson],
  )) {
    if (row.s === row.t) continue;
    const [a, b] = row.s < row.t ? [row.s, row.t] : [row.t, row.s];
    const key = `${a}-${b}`;
    const prior = strongest.get(key);
    if (!prior || prior.strength < row.strength)
      strongest.set(key, {
        source: entityKey(row.s),
        target: entityKey(row.t),
        kind: 'relation',
        type: row.type,
        strength: row.strength,
      });
  }
  edges.push(...strongest.values());
  for (const row of r.all<{ m: string; e: number; w: number }>(
    `SELECT memory_id AS m, entity_id AS e, weight AS w FROM memory_entities
     WHERE memory_id IN (SELECT value FROM json_each(?)) AND entity_id IN (SELECT value FROM json_each(?))`,
    [json(memoryIds), entityJson],
  )) {
    edges.push({
      source: memoryKey(row.m),
      target: entityKey(row.e),
      kind: 'mention',
      type: 'mentions',
      strength: row.w,
    });
  }
  return { nodes, edges };
}

/** One line of at most `max` characters (control characters and runs of whitespace collapsed). */
export function oneLine(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f\s]+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/**
 * What a recall touched, for live views: the memories it returned and the entities those
 * memories mention most (a few each), bounded so a large k never floods a listener.
 */
export function entitiesOfMemories(r: SqlReader, memoryIds: readonly string[], perMemory = 4): number[] {
  if (memoryIds.length === 0) return [];
  const rows = r.all<{ e: number }>(
    `SELECT entity_id AS e FROM (
       SELECT me.entity_id, row_number() OVER (PARTITION BY me.memory_id ORDER BY me.weight DESC) AS rank
       FROM memory_entities me JOIN entities e ON e.id = me.entity_id AND e.merged_into IS NULL
       WHERE me.memory_id IN (SELECT value FROM json_each(?)))
     WHERE rank <= ? GROUP BY entity_id`,
    [json(memoryIds.slice(0, 200)), perMemory],
  );
  return rows.map((row) => row.e);
}
