import type { SqlReader } from '../store/sqlAccess';

/**
 * Peer cards (seed 003): one line per well-connected entity saying what memory holds about it:
 * `auth.ts (path): 7 memories; with billing, Stripe; latest: "Tokens expire after 15 minutes"`.
 * Computed when asked from the entity links (no model, nothing stored), so a card is never stale.
 * The codebase layer is left out: the scanner links every file to its symbols, which would make
 * every file "well connected" and crowd out what people and agents learned. Private memories are
 * left out too: a card is shown to every reader (visibility.ts).
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
/** Entities looked at per card wanted: the busiest by raw link count, then checked one by one. */
const CANDIDATES_PER_CARD = 3;
/** A card's neighbours come from its entity's most recent memories, so a busy entity costs the same. */
const NEIGHBOUR_SAMPLE = 50;

const ACTIVE_LINKS = `FROM memory_entities me
  JOIN memories m ON m.id = me.memory_id AND m.superseded_at IS NULL AND m.status = 'active' AND m.layer != 'codebase'
    AND m.scope = 'shared'
  WHERE me.entity_id = ?`;

/**
 * Cards for the entities with the most links, those the `prefer` memories name first (the query's
 * hits), at most `limit`. The ranking reads the link index only (counts include inactive and
 * codebase links); each candidate is then counted exactly, so the work is bounded by `limit`, not
 * by the size of the store (measured: a full join and group took 1 s at 20k memories).
 */
export function peerCards(r: SqlReader, limit: number, prefer: readonly string[] = []): PeerCard[] {
  const preferred = prefer.length
    ? r
        .all<{ id: number }>(
          `SELECT entity_id AS id FROM memory_entities WHERE memory_id IN (${prefer.map(() => '?').join(', ')})
           GROUP BY entity_id ORDER BY count(*) DESC, entity_id LIMIT ?`,
          [...prefer, limit * CANDIDATES_PER_CARD],
        )
        .map((row) => row.id)
    : [];
  const busiest = r
    .all<{ id: number }>(
      'SELECT entity_id AS id FROM memory_entities GROUP BY entity_id ORDER BY count(*) DESC, entity_id LIMIT ?',
      [limit * CANDIDATES_PER_CARD],
    )
    .map((row) => row.id);
  const cards: PeerCard[] = [];
  for (const id of new Set([...preferred, ...busiest])) {
    if (cards.length === limit) break;
    const memories = r.value<number>(`SELECT count(*) ${ACTIVE_LINKS}`, [id]) ?? 0;
    if (memories >= MIN_CARD_MEMORIES) cards.push(card(r, id, memories));
  }
  return cards;
}

function card(r: SqlReader, entityId: number, memories: number): PeerCard {
  const entity = r.get<{ name: string; type: string }>('SELECT name, type FROM entities WHERE id = ?', [
    entityId,
  ]);
  const recent = r.all<{ id: string; content: string }>(
    `SELECT m.id AS id, m.content AS content ${ACTIVE_LINKS} ORDER BY m.valid_from DESC, m.id LIMIT ?`,
    [entityId, NEIGHBOUR_SAMPLE],
  );
  const neighbours = r
    .all<{ name: string }>(
      `SELECT e.name AS name FROM memory_entities other JOIN entities e ON e.id = other.entity_id
       WHERE other.memory_id IN (${recent.map(() => '?').join(', ')}) AND other.entity_id != ?
       GROUP BY other.entity_id ORDER BY count(*) DESC, e.name LIMIT 3`,
      [...recent.map((m) => m.id), entityId],
    )
    .map((row) => row.name);
  const latest = recent[0];
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
