import type { MemoryStore } from '../memory/memoryStore';
import { CURRENT_SELECT, toMemory } from '../memory/rows';
import type { MemoryRow } from '../memory/rows';
import type { Memory } from '../memory/types';
import { allForIds } from '../store/idLists';
import type { SqlReader } from '../store/sqlAccess';
import { showsAsName } from './nameEvidence';

/**
 * Stored peer cards (issue 21 section 3.4, seed 003): one summary memory per well-connected entity
 * (what we know about `auth.ts`, a service, a person), kept current by the lifecycle run. A card is
 * a semantic `summary` whose conflict key names its entity (`peer-card:<entity id>`): that key is
 * what marks it, finds it, and keeps it out of its own members, of dedup and of the write path's
 * restatement merge. Its members are the entity's active shared memories outside the codebase
 * layer: a card is shared, so it never quotes an agent's private memory (visibility.ts).
 */
export const PEER_CARD_KEY = 'peer-card:';
export const PEER_CARD_TAG = 'peer-card';

export interface PeerCardSettings {
  /** An entity needs this many active memories to get a card. @default 4 */
  minMemories: number;
  /** Member lines a card quotes, most important first. @default 6 */
  maxLines: number;
  /**
   * Cards are an index of the memory, not a second copy of it: at most one card per this many
   * active memories (but `minCards` always), for the entities with the most memories. Without a
   * bound, a memory of long chats named 2,000 entities in four or more memories and their cards
   * outweighed the memories (docs/benchmarks.md, LongMemEval in the lifecycle bench). @default 10
   */
  memoriesPerCard: number;
  /** @default 10 */
  minCards: number;
}
export const DEFAULT_PEER_CARDS: PeerCardSettings = {
  minMemories: 4,
  maxLines: 6,
  memoriesPerCard: 10,
  minCards: 10,
};

const LINE_CHARS = 160;
/** SQL: the memory `m` is not a peer card. */
export const NOT_A_CARD = `(m.conflict_key IS NULL OR m.conflict_key NOT LIKE '${PEER_CARD_KEY}%')`;
/** SQL: the memory `m` (a current version) may be a card's member. */
const MEMBER_WHERE = `m.superseded_at IS NULL AND m.status = 'active' AND m.layer != 'codebase' AND ${NOT_A_CARD}
       AND m.scope = 'shared'`;

/** A card the run would create, rewrite or archive, and why. */
export interface PeerCardChange {
  entityId: number;
  entity: string;
  action: 'create' | 'update' | 'archive';
  /** The card's memory id (none yet for `create`). */
  cardId: string | null;
  members: number;
  reason: string;
  content: string;
}

export interface PeerCardPlan {
  /** The last memory version row (rowid) this run saw: later rows are the next run's. */
  through: number;
  /** Entities whose memories changed since the last run (all of them on the first run). */
  considered: number;
  changes: PeerCardChange[];
}

/**
 * What the cards need now: only entities linked to a memory version recorded since the last run
 * (a memory added, edited, invalidated, superseded, archived) are looked at again.
 */
export function planPeerCards(
  reader: SqlReader,
  settings: PeerCardSettings = DEFAULT_PEER_CARDS,
): PeerCardPlan {
  const since = lastRunThrough(reader);
  // Every change of a memory inserts a version row, so rows past the last run's are what changed.
  const through = reader.value<number>('SELECT coalesce(max(rowid), 0) FROM memories') ?? 0;
  const changed = new Map<string, string>();
  const entities =
    since === undefined
      ? reader
          .all<{ id: number }>(
            'SELECT entity_id AS id FROM memory_entities GROUP BY entity_id HAVING count(*) >= ? ORDER BY entity_id',
            [settings.minMemories],
          )
          .map((row) => row.id)
      : dirtyEntities(reader, since, changed);
  const ranked = bestConnected(reader, settings);
  // A card whose entity fell out of the best connected is archived although nothing of it changed.
  const dropped = reader
    .all<{ key: string }>(
      `SELECT conflict_key AS key FROM memories
       WHERE conflict_key LIKE '${PEER_CARD_KEY}%' AND superseded_at IS NULL AND status = 'active'`,
    )
    .map((row) => Number(row.key.slice(PEER_CARD_KEY.length)))
    .filter((id) => !ranked.has(id));
  const considered = [...new Set([...entities, ...dropped])].sort((a, b) => a - b);
  const changes: PeerCardChange[] = [];
  for (const entityId of considered) {
    const change = cardChange(reader, entityId, settings, changed, ranked.has(entityId));
    if (change) changes.push(change);
  }
  return { through, considered: considered.length, changes };
}

/**
 * The entities that may have a card: those with at least `minMemories` active shared memories, the
 * most first (then the oldest entity), as many as the card budget allows.
 */
function bestConnected(reader: SqlReader, settings: PeerCardSettings): Set<number> {
  const active = reader.all<{ id: number; n: number }>(
    `SELECT me.entity_id AS id, count(*) AS n FROM memory_entities me JOIN memories m ON m.id = me.memory_id
     WHERE ${MEMBER_WHERE}
     GROUP BY me.entity_id HAVING count(*) >= ? ORDER BY count(*) DESC, me.entity_id`,
    [settings.minMemories],
  );
  const memories = reader.value<number>(`SELECT count(*) FROM memories m WHERE ${MEMBER_WHERE}`) ?? 0;
  const budget = Math.max(settings.minCards, Math.floor(memories / settings.memoriesPerCard));
  return new Set(active.slice(0, budget).map((row) => row.id));
}

/** Writes the plan: new cards, new versions of changed ones (the reason in their context), archives. */
export function applyPeerCards(store: MemoryStore, plan: PeerCardPlan): void {
  // Nothing changed since the last run: its watermark stays as good as a new one.
  if (plan.considered === 0) return;
  const actor = { agent: 'engram-lifecycle', trust: 'consolidation' as const };
  store.write((tx, now) => {
    for (const c of plan.changes) {
      const context = `Peer card of ${c.entity} (entity ${c.entityId}): ${c.reason}`;
      if (c.action === 'archive' && c.cardId) store.archive(c.cardId, actor, c.reason);
      else if (c.action === 'update' && c.cardId)
        store.edit(c.cardId, { content: c.content, context }, actor);
      else if (c.action === 'create')
        c.cardId = store.remember(
          {
            content: c.content,
            context,
            layer: 'semantic',
            kind: 'summary',
            tags: [PEER_CARD_TAG],
            conflictKey: `${PEER_CARD_KEY}${c.entityId}`,
            importance: 0.5,
            trust: 'consolidation',
            dedupe: false,
          },
          actor,
        ).memory.id;
      store.ledger.append(tx, now, {
        type: 'peer-card',
        memoryId: c.cardId,
        agent: actor.agent,
        data: { entity: c.entityId, action: c.action, reason: c.reason },
      });
    }
    // The run's own event (no memory) carries the watermark the next run starts from.
    store.ledger.append(tx, now, {
      type: 'peer-card',
      agent: actor.agent,
      data: { through: plan.through, considered: plan.considered, changed: plan.changes.length },
    });
  });
}

function lastRunThrough(reader: SqlReader): number | undefined {
  // Newest first by rowid: the scan stops at the last run's event.
  const data = reader.value<string>(
    "SELECT data FROM events WHERE type = 'peer-card' AND memory_id IS NULL ORDER BY seq DESC LIMIT 1",
  );
  if (data === undefined || data === null) return undefined;
  const through = (JSON.parse(data) as { through?: unknown }).through;
  return typeof through === 'number' ? through : undefined;
}

/** Entities of the memories with a version row past `since`; `changed` learns id -> change. */
function dirtyEntities(reader: SqlReader, since: number, changed: Map<string, string>): number[] {
  for (const row of reader.all<{ id: string; change: string }>(
    `SELECT m.id AS id, m.change AS change FROM memories m
     WHERE m.rowid > ? AND m.superseded_at IS NULL AND ${NOT_A_CARD}`,
    [since],
  ))
    changed.set(row.id, row.change);
  const ids = allForIds<{ id: number }>(
    reader,
    (marks) => `SELECT DISTINCT entity_id AS id FROM memory_entities WHERE memory_id IN (${marks})`,
    [...changed.keys()],
  ).map((row) => row.id);
  // DISTINCT holds within one slice of ids: an entity in two slices would be planned twice.
  return [...new Set(ids)].sort((a, b) => a - b);
}

function cardChange(
  reader: SqlReader,
  entityId: number,
  settings: PeerCardSettings,
  changed: ReadonlyMap<string, string>,
  inBudget: boolean,
): PeerCardChange | undefined {
  const entity = reader.get<{ name: string; type: string }>('SELECT name, type FROM entities WHERE id = ?', [
    entityId,
  ]);
  if (!entity) return undefined;
  const members = reader
    .all<MemoryRow>(
      `${CURRENT_SELECT} JOIN memory_entities me ON me.memory_id = m.id AND me.entity_id = ?
       WHERE ${MEMBER_WHERE}
       ORDER BY m.importance DESC, m.valid_from DESC, m.id`,
      [entityId],
    )
    .map(toMemory);
  const card = reader.get<{ id: string; content: string }>(
    `SELECT id, content FROM memories WHERE conflict_key = ? AND superseded_at IS NULL AND status = 'active'`,
    [`${PEER_CARD_KEY}${entityId}`],
  );
  const name = `${entity.name} (${entity.type})`;
  const because = reasonOf(reader, entityId, changed);
  const few = members.length < settings.minMemories;
  // A capitalised word that only ever opens a sentence ("Aww", "Long", "Appreciate") is no name.
  const ordinary =
    !few &&
    entity.type === 'name' &&
    !showsAsName(
      entity.name,
      members.map((m) => m.content),
    );
  const outside = !few && !ordinary && !inBudget;
  if (few || ordinary || outside) {
    if (!card) return undefined;
    return {
      entityId,
      entity: name,
      action: 'archive',
      cardId: card.id,
      members: members.length,
      reason: few
        ? `${members.length} active memories, fewer than ${settings.minMemories}${because}`
        : outside
          ? `${members.length} active memories: not among the entities with the most, one card per ${settings.memoriesPerCard} memories${because}`
          : `capitalised only where a sentence starts in its ${members.length} memories: not a name${because}`,
      content: card.content,
    };
  }
  const content = cardText(reader, name, entityId, members, settings);
  if (card?.content === content) return undefined;
  return {
    entityId,
    entity: name,
    action: card ? 'update' : 'create',
    cardId: card?.id ?? null,
    members: members.length,
    reason: `from ${members.length} memories${because}`,
    content,
  };
}

/** `; memory m_1 created, m_2 invalidated`: what changed among the entity's memories. */
function reasonOf(reader: SqlReader, entityId: number, changed: ReadonlyMap<string, string>): string {
  if (changed.size === 0) return '';
  const mine = allForIds<{ id: string }>(
    reader,
    (marks) => `SELECT memory_id AS id FROM memory_entities WHERE entity_id = ? AND memory_id IN (${marks})`,
    [...changed.keys()],
    [entityId],
  ).map((row) => `${row.id} ${changed.get(row.id)}`);
  return mine.length ? `; changed: ${mine.slice(0, 5).join(', ')}${mine.length > 5 ? ', ...' : ''}` : '';
}

function cardText(
  reader: SqlReader,
  name: string,
  entityId: number,
  members: readonly Memory[],
  settings: PeerCardSettings,
): string {
  const ids = members.map((m) => m.id);
  const company = allForIds<{ name: string; n: number }>(
    reader,
    (marks) =>
      `SELECT e.name AS name, count(*) AS n FROM memory_entities me JOIN entities e ON e.id = me.entity_id
       WHERE me.entity_id != ? AND me.memory_id IN (${marks}) GROUP BY me.entity_id`,
    ids,
    [entityId],
  )
    .sort((a, b) => b.n - a.n || a.name.localeCompare(b.name))
    .slice(0, 3)
    .map((row) => row.name);
  const lines = members.slice(0, settings.maxLines).map((m) => {
    const flat = m.content.replace(/\s+/g, ' ').trim();
    return `- [${m.id}] ${flat.length > LINE_CHARS ? `${flat.slice(0, LINE_CHARS - 1)}…` : flat}`;
  });
  const head = `What we know about ${name}, from ${members.length} memories${company.length ? ` (with ${company.join(', ')})` : ''}:`;
  return [head, ...lines].join('\n');
}
