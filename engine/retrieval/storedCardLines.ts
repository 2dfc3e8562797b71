import { PEER_CARD_KEY } from '../lifecycle/storedPeerCards';
import type { SqlReader } from '../store/sqlAccess';

/**
 * The stored peer cards (engine/lifecycle/storedPeerCards.ts) for the context levels' L2: those of
 * the entities the `prefer` memories (the query's hits) name most, then the cards of the entities
 * with the most links, at most `limit`. Empty until a lifecycle run wrote the first cards.
 */
export function storedCardLines(
  r: SqlReader,
  limit: number,
  prefer: readonly string[] = [],
): Array<{ id: string; text: string }> {
  const cards = r.all<{ id: string; content: string; key: string }>(
    `SELECT id, content, conflict_key AS key FROM memories
     WHERE superseded_at IS NULL AND status = 'active' AND conflict_key LIKE '${PEER_CARD_KEY}%'`,
  );
  if (cards.length === 0) return [];
  const byEntity = new Map(cards.map((c) => [Number(c.key.slice(PEER_CARD_KEY.length)), c]));
  const preferred = prefer.length
    ? r
        .all<{ id: number }>(
          `SELECT entity_id AS id FROM memory_entities WHERE memory_id IN (${prefer.map(() => '?').join(', ')})
           GROUP BY entity_id ORDER BY count(*) DESC, entity_id`,
          [...prefer],
        )
        .map((row) => row.id)
    : [];
  const busiest = r
    .all<{ id: number }>(
      `SELECT entity_id AS id FROM memory_entities WHERE entity_id IN (${[...byEntity.keys()].join(', ')})
       GROUP BY entity_id ORDER BY count(*) DESC, entity_id`,
    )
    .map((row) => row.id);
  const lines: Array<{ id: string; text: string }> = [];
  for (const entityId of new Set([...preferred, ...busiest])) {
    const card = byEntity.get(entityId);
    if (!card) continue;
    lines.push({ id: card.id, text: `- [${card.id}] ${card.content.replace(/\s*\n\s*/g, ' ')}` });
    if (lines.length === limit) break;
  }
  return lines;
}
