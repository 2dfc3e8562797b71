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
      `SELECT target_id AS id, strength FROM relations WHERE source_id = ?
       UNION ALL SELECT source_id AS id, strength FROM relations WHERE target_id = ?
       ORDER BY strength DESC LIMIT ?`,
      [entityId, entityId, NEIGHBOURS],
    )) {
      if (!seeds.has(neighbour.id)) add(neighbour.id, 0.5 * weight * neighbour.strength);
    }
  }
  return [...scores]
    .map(([memoryId, score]) => ({ memoryId, score }))
    .sort((a, b) => b.score - a.score || a.memoryId.localeCompare(b.memoryId))
    .slice(0, limit);
}
