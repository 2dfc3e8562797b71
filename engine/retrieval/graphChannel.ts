import { paddedList } from '../store/idLists';
import type { SqlReader } from '../store/sqlAccess';

/**
 * Graph channel: memories linked to the query's entities (hop 0), and memories of the entities
 * most strongly related to them (hop 1), scored by query-entity weight x link weight, times the
 * relation strength for hop 1.
 */
const PER_ENTITY = 200;
const NEIGHBOURS = 20;

export function graphCandidates(
  reader: SqlReader,
  seeds: Map<number, number>,
  limit: number,
): Array<{ memoryId: string; score: number }> {
  const scores = new Map<string, number>();
  const add = (entityId: number, factor: number) => {
    for (const row of reader.all<{ memoryId: string; weight: number }>(
      `SELECT me.memory_id AS memoryId, me.weight AS weight FROM memory_entities me
       JOIN memories m ON m.id = me.memory_id AND m.superseded_at IS NULL AND m.status = 'active'
       WHERE me.entity_id = ? ORDER BY me.weight DESC LIMIT ?`,
      [entityId, PER_ENTITY],
    )) {
      scores.set(row.memoryId, (scores.get(row.memoryId) ?? 0) + factor * row.weight);
    }
  };
  for (const [entityId, weight] of seeds) {
    add(entityId, weight);
    for (const neighbour of reader.all<{ id: number; strength: number }>(
      `SELECT * FROM (SELECT target_id AS id, strength FROM relations WHERE source_id = ? ORDER BY strength DESC LIMIT ?)
       UNION ALL SELECT * FROM (SELECT source_id AS id, strength FROM relations WHERE target_id = ? ORDER BY strength DESC LIMIT ?)
       ORDER BY strength DESC LIMIT ?`,
      [entityId, NEIGHBOURS, entityId, NEIGHBOURS, NEIGHBOURS],
    )) {
      if (!seeds.has(neighbour.id)) add(neighbour.id, 0.5 * weight * neighbour.strength);
    }
  }
  return [...scores]
    .map(([memoryId, score]) => ({ memoryId, score }))
    .sort((a, b) => b.score - a.score || a.memoryId.localeCompare(b.memoryId))
    .slice(0, limit);
}

/**
 * The graph channel's scores for given candidates only: what it contributes when it only re-ranks
 * text matches (see recall.ts). Reads the candidates' own entity links, so the cost follows the
 * candidate count, not the degree of a common entity.
 */
export function graphScoresFor(
  reader: SqlReader,
  seeds: Map<number, number>,
  candidates: readonly string[],
): Array<{ memoryId: string; score: number }> {
  if (candidates.length === 0 || seeds.size === 0) return [];
  const factor = new Map<number, number>();
  for (const [entityId, weight] of seeds) {
    factor.set(entityId, (factor.get(entityId) ?? 0) + weight);
    for (const neighbour of reader.all<{ id: number; strength: number }>(
      `SELECT * FROM (SELECT target_id AS id, strength FROM relations WHERE source_id = ? ORDER BY strength DESC LIMIT ?)
       UNION ALL SELECT * FROM (SELECT source_id AS id, strength FROM relations WHERE target_id = ? ORDER BY strength DESC LIMIT ?)
       ORDER BY strength DESC LIMIT ?`,
      [entityId, NEIGHBOURS, entityId, NEIGHBOURS, NEIGHBOURS],
    )) {
      if (!seeds.has(neighbour.id))
        factor.set(neighbour.id, (factor.get(neighbour.id) ?? 0) + 0.5 * weight * neighbour.strength);
    }
  }
  const scores = new Map<string, number>();
  const entities = [...factor.keys()];
  // Only the links to the query's entities and their neighbours come back: at k = 1000 the
  // candidates' other links (tens of thousands of rows) were most of the channel's time. `+`
  // keeps SQLite seeking by memory and filtering by entity, so rows (and sums) keep their order.
  // Both lists padded (paddedList): their lengths change from recall to recall.
  const memories = paddedList(candidates);
  const linked = paddedList(entities);
  for (const link of reader.all<{ memoryId: string; entityId: number; weight: number }>(
    `SELECT memory_id AS memoryId, entity_id AS entityId, weight FROM memory_entities
     WHERE memory_id IN (${memories.marks}) AND +entity_id IN (${linked.marks})`,
    [...memories.params, ...linked.params],
  )) {
    const f = factor.get(link.entityId);
    if (f !== undefined) scores.set(link.memoryId, (scores.get(link.memoryId) ?? 0) + f * link.weight);
  }
  return [...scores]
    .map(([memoryId, score]) => ({ memoryId, score }))
    .sort((a, b) => b.score - a.score || a.memoryId.localeCompare(b.memoryId));
}
