import type { SqlReader } from '../store/sqlAccess';

/**
 * Peer cards (seed 003): one line per well-connected entity saying what memory holds about it:
 * `auth.ts (path): 7 memories; with billing, Stripe; latest: "Tokens expire after 15 minutes"`.
 * Computed when asked from the entity links (no model, nothing stored), so a card is never stale.
 * The codebase layer is left out: the scanner links every file to its symbols, which would make
 * every file "well connected" and crowd out what people and agents learned.
 */
export interface PeerCard {
  entityId: number;
  name: string;
  type: string;
  memories: number;
  /** The entities it shares most memories with. */
  with: string[];
  /** Its most recent memory, as evidence: id and first words. */
  latest: { id: string; excerpt: string };
}

/** An entity needs this many active memories to get a card. */
export const MIN_CARD_MEMORIES = 2;
const EXCERPT_CHARS = 90;

const LINKED = `FROM memory_entities me
  JOIN memories m ON m.id = me.memory_id AND m.superseded_at IS NULL AND m.status = 'active' AND m.layer != 'codebase'`;

/**
 * Cards for the entities with the most memories, those in `prefer` first (the entities of the
 * query's hits), at most `limit`.
 */
export function peerCards(r: SqlReader, limit: number, prefer: readonly string[] = []): PeerCard[] {
  const preferred = prefer.length
    ? r.all<{ id: number; n: number }>(
        `SELECT me.entity_id AS id, count(*) AS n ${LINKED}
         WHERE me.entity_id IN (SELECT entity_id FROM memory_entities WHERE memory_id IN (${prefer.map(() => '?').join(', ')}))
         GROUP BY me.entity_id HAVING n >= ? ORDER BY n DESC, me.entity_id LIMIT ?`,
        [...prefer, MIN_CARD_MEMORIES, limit],
      )
    : [];
  const overall = r.all<{ id: number; n: number }>(
    `SELECT me.entity_id AS id, count(*) AS n ${LINKED}
     GROUP BY me.entity_id HAVING n >= ? ORDER BY n DESC, me.entity_id LIMIT ?`,
    [MIN_CARD_MEMORIES, limit],
  );
  const chosen = new Map<number, number>();
  for (const row of [...preferred, ...overall])
    if (chosen.size < limit && !chosen.has(row.id)) chosen.set(row.id, row.n);
  return [...chosen].map(([id, n]) => card(r, id, n));
}

function card(r: SqlReader, entityId: number, memories: number): PeerCard {
  const entity = r.get<{ name: string; type: string }>('SELECT name, type FROM entities WHERE id = ?', [
    entityId,
  ]);
  const neighbours = r
    .all<{ name: string }>(
      `SELECT e.name AS name FROM memory_entities other
       JOIN entities e ON e.id = other.entity_id
       WHERE other.memory_id IN (SELECT me.memory_id ${LINKED} WHERE me.entity_id = ?) AND other.entity_id != ?
       GROUP BY other.entity_id ORDER BY count(*) DESC, e.name LIMIT 3`,
      [entityId, entityId],
    )
    .map((row) => row.name);
  const latest = r.get<{ id: string; content: string }>(
    `SELECT m.id AS id, m.content AS content ${LINKED} WHERE me.entity_id = ? ORDER BY m.valid_from DESC, m.id LIMIT 1`,
    [entityId],
  );
  const flat = (latest?.content ?? '').replace(/\s+/g, ' ').trim();
  return {
    entityId,
    name: entity?.name ?? String(entityId),
    type: entity?.type ?? 'unknown',
    memories,
    with: neighbours,
    latest: {
      id: latest?.id ?? '',
      excerpt: flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS - 1)}…` : flat,
    },
  };
}

/** A card as one line of a context block. */
export function peerCardLine(card: PeerCard): string {
  const company = card.with.length ? `; with ${card.with.join(', ')}` : '';
  return `- ${card.name} (${card.type}): ${card.memories} memories${company}; latest [${card.latest.id}]: ${card.latest.excerpt}`;
}
