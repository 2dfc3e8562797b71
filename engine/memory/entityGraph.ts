import { notFound } from '../errors';
import { visibleCondition } from './visibility';
import type { Viewer } from './visibility';
import { withoutSecrets } from '../extract/secrets';
import type { SqlReader, SqlWriter } from '../store/sqlAccess';

export interface Entity {
  id: number;
  name: string;
  key: string;
  type: string;
  aliases: string[];
  memoryCount: number;
}

export interface RelatedEntity extends Entity {
  hops: number;
  /** Product of relation strengths along the strongest path, 0..1. */
  score: number;
}

/** Drops a memory's entity links (before re-linking an edited version). Relations keep their evidence. */
export function unlinkEntities(tx: SqlWriter, memoryId: string): void {
  tx.run('DELETE FROM memory_entities WHERE memory_id = ?', [memoryId]);
}

export function recordRelation(
  tx: SqlWriter,
  sourceId: number,
  targetId: number,
  type: string,
  at: number,
): void {
  // Strength grows with evidence and saturates: 1 sighting 0.33, 3 sightings 0.6, 10 sightings 0.83.
  tx.run(
    'INSERT INTO relations (source_id, target_id, type, strength, evidence_count, first_seen_at, last_seen_at) ' +
      'VALUES (?, ?, ?, 1.0 / 3.0, 1, ?, ?) ON CONFLICT (source_id, target_id, type) DO UPDATE SET ' +
      'evidence_count = evidence_count + 1, strength = (evidence_count + 1.0) / (evidence_count + 3.0), last_seen_at = excluded.last_seen_at',
    [sourceId, targetId, withoutSecrets(type), at, at],
  );
}

/**
 * The entity with this key, created if missing. A name holding a secret is stored redacted and
 * gives the key (the given key is the secret lower-cased, which may no longer look like one).
 */
export function upsertEntity(
  tx: SqlWriter,
  givenKey: string,
  givenName: string,
  type: string,
  at: number,
): number {
  const name = withoutSecrets(givenName);
  const key = name === givenName ? withoutSecrets(givenKey).toLowerCase() : name.trim().toLowerCase();
  const existing = resolveAlias(tx, key);
  if (existing !== undefined) return existing;
  tx.run('INSERT INTO entities (key, name, type, created_at) VALUES (?, ?, ?, ?)', [
    key,
    name,
    withoutSecrets(type),
    at,
  ]);
  return tx.value<number>('SELECT id FROM entities WHERE key = ?', [key])!;
}

/**
 * An alias of a live entity first, else the entity with that key, with where it was merged into:
 * one statement, as this runs for every entity of every memory written (the scanner's drafts:
 * three statements each cost ~0.2 ms of a 0.75 ms remember).
 */
const RESOLVE_ALIAS = `SELECT id, merged_into AS mergedInto FROM entities WHERE id = coalesce(
  (SELECT e.id FROM entity_aliases a JOIN entities e ON e.id = a.entity_id
    WHERE a.alias = ? AND e.merged_into IS NULL ORDER BY e.id LIMIT 1),
  (SELECT id FROM entities WHERE key = ?))`;

function resolveAlias(reader: SqlReader, alias: string): number | undefined {
  const row = reader.get<{ id: number; mergedInto: number | null }>(RESOLVE_ALIAS, [alias, alias]);
  if (!row) return undefined;
  return row.mergedInto === null ? row.id : followMerges(reader, row.mergedInto);
}

function followMerges(reader: SqlReader, id: number): number {
  let current = id;
  for (let guard = 0; guard < 64; guard++) {
    const next = reader.value<number | null>('SELECT merged_into FROM entities WHERE id = ?', [current]);
    if (next === null || next === undefined) return current;
    current = next;
  }
  return current;
}

/** Finds one entity by name, key or alias (case-insensitive); a name with a secret, as it was stored. */
export function findEntity(reader: SqlReader, nameOrAlias: string): Entity | undefined {
  const id = resolveAlias(reader, withoutSecrets(nameOrAlias).trim().toLowerCase());
  return id === undefined ? undefined : entityById(reader, id);
}

export function entityById(reader: SqlReader, id: number): Entity | undefined {
  const row = reader.get<{ id: number; name: string; key: string; type: string }>(
    'SELECT id, name, key, type FROM entities WHERE id = ?',
    [id],
  );
  if (!row) return undefined;
  return { ...row, aliases: aliasesOf(reader, id), memoryCount: memoryCountOf(reader, id) };
}

/** Entities whose name or alias contains `query` (all entities when empty), most linked first. */
export function searchEntities(
  reader: SqlReader,
  query: string | undefined,
  limit: number,
  viewer?: Viewer,
): Entity[] {
  const like = `%${(query ?? '')
    .trim()
    .toLowerCase()
    .replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
  // An agent is not told of entities only another agent's private memories name (visibility.ts).
  const visible = visibleCondition(viewer);
  const seen =
    viewer === undefined
      ? ''
      : `AND EXISTS (SELECT 1 FROM memory_entities me JOIN memories m ON m.id = me.memory_id
           AND m.superseded_at IS NULL WHERE me.entity_id = e.id AND ${visible.sql})`;
  // Its count too: the memories it may see.
  const counted =
    viewer === undefined
      ? '(SELECT count(*) FROM memory_entities me WHERE me.entity_id = e.id)'
      : `(SELECT count(*) FROM memory_entities me JOIN memories m ON m.id = me.memory_id
           AND m.superseded_at IS NULL WHERE me.entity_id = e.id AND ${visible.sql})`;
  const rows = reader.all<{ id: number; name: string; key: string; type: string; n: number }>(
    `SELECT e.id, e.name, e.key, e.type, ${counted} AS n
     FROM entities e WHERE e.merged_into IS NULL AND (e.key LIKE ? ESCAPE '\\' OR EXISTS (
       SELECT 1 FROM entity_aliases a WHERE a.entity_id = e.id AND a.alias LIKE ? ESCAPE '\\')) ${seen}
     ORDER BY n DESC, e.key LIMIT ?`,
    [...visible.params, like, like, ...visible.params, limit],
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    key: row.key,
    type: row.type,
    aliases: aliasesOf(reader, row.id),
    memoryCount: row.n,
  }));
}

/**
 * Entities within `hops` relations of `start`, scored by the strongest path (product of
 * strengths), with a recursive CTE so the walk stays inside SQLite.
 */
export function relatedEntities(
  reader: SqlReader,
  start: Entity,
  hops: number,
  limit: number,
): RelatedEntity[] {
  const rows = reader.all<{ id: number; hops: number; score: number }>(
    `WITH RECURSIVE walk (id, depth, score) AS (
       SELECT ?, 0, 1.0
       UNION
       SELECT r.target_id, w.depth + 1, w.score * r.strength FROM walk w JOIN relations r ON r.source_id = w.id WHERE w.depth < ?
       UNION
       SELECT r.source_id, w.depth + 1, w.score * r.strength FROM walk w JOIN relations r ON r.target_id = w.id WHERE w.depth < ?
     )
     SELECT w.id, min(w.depth) AS hops, max(w.score) AS score FROM walk w JOIN entities e ON e.id = w.id
     WHERE w.id != ? AND e.merged_into IS NULL GROUP BY w.id ORDER BY score DESC, hops ASC LIMIT ?`,
    [start.id, hops, hops, start.id, limit],
  );
  return rows.flatMap((row) => {
    const entity = entityById(reader, row.id);
    return entity ? [{ ...entity, hops: row.hops, score: row.score }] : [];
  });
}

/** Ids of the current memories that mention an entity, strongest link first. */
export function backlinks(
  reader: SqlReader,
  entityId: number,
  limit: number,
): Array<{ memoryId: string; weight: number }> {
  return reader.all<{ memoryId: string; weight: number }>(
    'SELECT me.memory_id AS memoryId, me.weight AS weight FROM memory_entities me ' +
      'JOIN memories m ON m.id = me.memory_id AND m.superseded_at IS NULL ' +
      "WHERE me.entity_id = ? AND m.status = 'active' ORDER BY me.weight DESC, m.recorded_at DESC LIMIT ?",
    [entityId, limit],
  );
}

/**
 * Merges `from` into `into`: links, aliases and relations move, `from` stays as a tombstone that
 * points at `into` so old names keep resolving.
 */
export function mergeEntities(tx: SqlWriter, fromName: string, intoName: string): Entity {
  const from = findEntity(tx, fromName);
  const into = findEntity(tx, intoName);
  if (!from) throw notFound(`no entity named "${fromName}"`);
  if (!into) throw notFound(`no entity named "${intoName}"`);
  if (from.id === into.id) return into;
  tx.run(
    'INSERT INTO memory_entities (memory_id, entity_id, weight) SELECT memory_id, ?, weight FROM memory_entities WHERE entity_id = ? ' +
      'ON CONFLICT (memory_id, entity_id) DO UPDATE SET weight = max(weight, excluded.weight)',
    [into.id, from.id],
  );
  tx.run('DELETE FROM memory_entities WHERE entity_id = ?', [from.id]);
  tx.run(
    'INSERT OR IGNORE INTO entity_aliases (alias, entity_id) SELECT alias, ? FROM entity_aliases WHERE entity_id = ?',
    [into.id, from.id],
  );
  tx.run('DELETE FROM entity_aliases WHERE entity_id = ?', [from.id]);
  for (const relation of tx.all<{
    source_id: number;
    target_id: number;
    type: string;
    evidence_count: number;
    first_seen_at: number;
    last_seen_at: number;
  }>(
    'SELECT source_id, target_id, type, evidence_count, first_seen_at, last_seen_at FROM relations WHERE source_id = ? OR target_id = ?',
    [from.id, from.id],
  )) {
    const other = relation.source_id === from.id ? relation.target_id : relation.source_id;
    tx.run('DELETE FROM relations WHERE source_id = ? AND target_id = ? AND type = ?', [
      relation.source_id,
      relation.target_id,
      relation.type,
    ]);
    if (other === into.id) continue;
    const [a, b] =
      relation.type === 'co-occurs'
        ? [Math.min(other, into.id), Math.max(other, into.id)]
        : relation.source_id === from.id
          ? [into.id, other]
          : [other, into.id];
    tx.run(
      'INSERT INTO relations (source_id, target_id, type, strength, evidence_count, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?, ?) ' +
        'ON CONFLICT (source_id, target_id, type) DO UPDATE SET evidence_count = evidence_count + excluded.evidence_count, ' +
        'strength = (evidence_count + excluded.evidence_count) / (evidence_count + excluded.evidence_count + 2.0), ' +
        'first_seen_at = min(first_seen_at, excluded.first_seen_at), last_seen_at = max(last_seen_at, excluded.last_seen_at)',
      [
        a,
        b,
        relation.type,
        relation.evidence_count / (relation.evidence_count + 2),
        relation.evidence_count,
        relation.first_seen_at,
        relation.last_seen_at,
      ],
    );
  }
  tx.run('UPDATE entities SET merged_into = ? WHERE id = ?', [into.id, from.id]);
  return entityById(tx, into.id)!;
}

function aliasesOf(reader: SqlReader, id: number): string[] {
  return reader
    .all<{ alias: string }>('SELECT alias FROM entity_aliases WHERE entity_id = ? ORDER BY alias', [id])
    .map((r) => r.alias);
}

function memoryCountOf(reader: SqlReader, id: number): number {
  return reader.value<number>('SELECT count(*) FROM memory_entities WHERE entity_id = ?', [id]) ?? 0;
}
