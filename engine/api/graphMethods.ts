import { z } from 'zod';
import { viewerOf, visibleCondition } from '../memory/visibility';
import type { Viewer } from '../memory/visibility';
import { notFound } from '../errors';
import { findEntity, entityById } from '../memory/entityGraph';
import { resolveId } from '../memory/memoryQueries';
import { LAYERS } from '../memory/types';
import type { Layer } from '../memory/types';
import type { SqlReader } from '../store/sqlAccess';
import { entityKey, json, memoryKey, payloadFor } from './graphPayload';
import type { Candidate } from './graphPayload';
import { defineMethod, methodParams } from './defineMethod';
import { wholeNumber } from './paramFields';
import { addSessionLayer } from '../capture/graphSessions';

/**
 * The entity graph as the Graph panel draws it: entities and memories as nodes, relations
 * (entity-entity, with strength) and mentions (memory-entity, with weight) as edges. Results are
 * bounded by a node limit so a large store stays quick to build, send and lay out.
 *
 * - `graphNeighbourhood` {seeds, hops?, types?, layers?, limit?}: what lies within `hops` edges of
 *   the seeds (entities by name or id, memories by id, files by path), strongest paths first.
 * - `graphOverview` {types?, layers?, limit?}: the most mentioned entities and the memories that
 *   name most of them, for when there is no seed yet.
 */

export interface GraphEntityNode {
  /** `e:<entity id>`: unique among the nodes of one payload. */
  id: string;
  kind: 'entity';
  entityId: number;
  label: string;
  type: string;
  memoryCount: number;
  /** Edges from the nearest seed (0 for a seed; overview nodes count from the top entities). */
  hops: number;
}

export interface GraphMemoryNode {
  /** `m:<memory id>` */
  id: string;
  kind: 'memory';
  memoryId: string;
  /** The content cut to one short line. */
  label: string;
  /** The content cut to a few lines, for a tooltip. */
  text: string;
  layer: Layer;
  memoryKind: string;
  status: string;
  hops: number;
}

/** A captured agent session that edited a file in view (with `sessions: true`; engine/capture/graphSessions.ts). */
export interface GraphSessionNode {
  /** `s:<session id>` */
  id: string;
  kind: 'session';
  sessionId: string;
  agent: string;
  /** The agent and what was first asked, cut to one short line. */
  label: string;
  /** When, how many turns, the first request: a few lines for a tooltip. */
  text: string;
  startedAt: number | null;
  hops: number;
}

/** A commit that carries a session's edits of a file in view (engine/capture/link/). */
export interface GraphCommitNode {
  /** `c:<sha>` */
  id: string;
  kind: 'commit';
  sha: string;
  /** The short hash and the subject. */
  label: string;
  text: string;
  committedAt: number;
  hops: number;
}

export type GraphNode = GraphEntityNode | GraphMemoryNode | GraphSessionNode | GraphCommitNode;

export interface GraphEdge {
  source: string;
  target: string;
  /**
   * relation: entity-entity; mention: memory-entity; edit: a session and a file it changed;
   * commit: a commit and the session or file whose edits it carries.
   */
  kind: 'relation' | 'mention' | 'edit' | 'commit';
  /** The relation type (co-occurs, uses...), `mentions`, `edited` or `carries`. */
  type: string;
  /** 0..1: relation strength or mention weight. */
  strength: number;
}

export interface GraphPayload {
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** Node ids of the seeds (empty for an overview). */
  seeds: string[];
  /** True when the limit cut nodes that would otherwise have been included. */
  truncated: boolean;
  limit: number;
}

export const GRAPH_DEFAULT_LIMIT = 300;
export const GRAPH_MAX_LIMIT = 2000;
export const GRAPH_MAX_HOPS = 3;
export const GRAPH_MAX_SEEDS = 50;

interface Filters {
  types: string[] | undefined;
  layers: Layer[] | undefined;
  limit: number;
  sessions: boolean;
  /** Who reads: another agent's private memories are not nodes (visibility.ts). */
  viewer: Viewer;
}

type Seed = { entity: string } | { entityId: number } | { memory: string } | { file: string };

const SEED = 'must be one of {entity: name}, {entityId: number}, {memory: id}, {file: path}';
const SEEDS = `must be a list of 1 to ${GRAPH_MAX_SEEDS} of {entity}, {entityId}, {memory} or {file}`;
const SEED_KEYS: ReadonlySet<string> = new Set(['entity', 'memory', 'file']);

/** One key: a positive whole entityId, or a name, id or path of 1 to 1000 characters that says something. */
function isSeed(value: unknown): value is Seed {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  const [key, field] = entries[0] ?? [];
  if (entries.length !== 1 || key === undefined) return false;
  if (key === 'entityId') return Number.isSafeInteger(field) && (field as number) > 0;
  return SEED_KEYS.has(key) && typeof field === 'string' && field.trim() !== '' && field.length <= 1000;
}

const filterParams = {
  types: z
    .array(
      z
        .string()
        .min(1)
        .max(64)
        .refine((type) => type.trim() !== ''),
      'must be a list of entity type names',
    )
    .optional(),
  layers: z.array(z.enum(LAYERS)).optional(),
  /** Captured sessions that edited the files in view, and the commits that carry their edits. */
  sessions: z.boolean().optional(),
  limit: wholeNumber(1, GRAPH_MAX_LIMIT, `must be a whole number from 1 to ${GRAPH_MAX_LIMIT}`).optional(),
};

export const GRAPH_NEIGHBOURHOOD_PARAMS = methodParams({
  seeds: z.array(z.custom<Seed>(isSeed, SEED), SEEDS).min(1, SEEDS).max(GRAPH_MAX_SEEDS, SEEDS),
  hops: wholeNumber(1, GRAPH_MAX_HOPS, `must be a whole number from 1 to ${GRAPH_MAX_HOPS}`).optional(),
  ...filterParams,
});
export const GRAPH_OVERVIEW_PARAMS = methodParams(filterParams);

function filtersOf(p: z.output<typeof GRAPH_OVERVIEW_PARAMS>): Filters {
  return {
    types: p.types,
    layers: p.layers,
    limit: p.limit ?? GRAPH_DEFAULT_LIMIT,
    sessions: p.sessions === true,
    viewer: viewerOf(p),
  };
}

export const GRAPH_METHODS = {
  graphNeighbourhood: defineMethod({
    params: GRAPH_NEIGHBOURHOOD_PARAMS,
    write: false,
    run: ({ store }, p): GraphPayload =>
      store.read((r) => withCapture(r, neighbourhood(r, p.seeds, p.hops ?? 1, filtersOf(p)), filtersOf(p))),
  }),
  graphOverview: defineMethod({
    params: GRAPH_OVERVIEW_PARAMS,
    write: false,
    run: ({ store }, p): GraphPayload =>
      store.read((r) => withCapture(r, overview(r, filtersOf(p)), filtersOf(p))),
  }),
} as const;

/** The payload with the sessions and commits of its files when the query asks for them. */
function withCapture(r: SqlReader, payload: GraphPayload, f: Filters): GraphPayload {
  return f.sessions ? addSessionLayer(r, payload) : payload;
}

// ---- walking ------------------------------------------------------------------------------

/**
 * Breadth-first by hops; at each hop the candidates are ranked by their strongest path (product
 * of strengths and weights from a seed) and taken until the limit is reached. Each frontier node
 * contributes only its strongest neighbours, so a hub with thousands of mentions costs one
 * indexed, limited query rather than a scan.
 */
function neighbourhood(r: SqlReader, seeds: Seed[], hops: number, f: Filters): GraphPayload {
  const chosen = new Map<string, Candidate>();
  for (const seed of seeds) {
    const id = resolveSeed(r, seed, f.viewer);
    chosen.set(id, { id, score: 1, hops: 0 });
  }
  let frontier = [...chosen.values()];
  let truncated = chosen.size > f.limit;
  for (let depth = 1; depth <= hops && frontier.length > 0; depth++) {
    const remaining = f.limit - chosen.size;
    if (remaining <= 0) {
      truncated = truncated || hasNeighbour(r, frontier, f, chosen);
      break;
    }
    const fanOut = Math.min(f.limit, Math.max(5, Math.ceil((2 * remaining) / frontier.length)));
    const found = new Map<string, Candidate>();
    for (const node of frontier) {
      for (const [id, weight] of neighboursOf(r, node.id, f, fanOut)) {
        if (chosen.has(id)) continue;
        const score = node.score * weight;
        const prior = found.get(id);
        if (!prior || prior.score < score) found.set(id, { id, score, hops: depth });
      }
    }
    const ranked = [...found.values()].sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
    if (ranked.length > remaining) truncated = true;
    frontier = ranked.slice(0, remaining);
    for (const c of frontier) chosen.set(c.id, c);
  }
  const kept = [...chosen.values()].slice(0, f.limit);
  return {
    ...payloadFor(r, kept),
    seeds: kept.filter((c) => c.hops === 0).map((c) => c.id),
    truncated,
    limit: f.limit,
  };
}

function resolveSeed(r: SqlReader, seed: Seed, viewer: Viewer): string {
  if ('memory' in seed) return memoryKey(resolveId(r, seed.memory, viewer));
  if ('entityId' in seed) {
    const entity = entityById(r, seed.entityId);
    if (!entity) throw notFound(`no entity with id ${seed.entityId}`);
    return entityKey(entity.id);
  }
  const name = 'file' in seed ? seed.file.replace(/\\/g, '/').replace(/^\.\//, '') : seed.entity;
  const entity = findEntity(r, name);
  if (!entity) throw notFound(`no ${'file' in seed ? 'file' : 'entity'} named "${name}" in the entity graph`);
  return entityKey(entity.id);
}

/** True if any frontier node has a neighbour not yet chosen (the limit cut it off). */
function hasNeighbour(
  r: SqlReader,
  frontier: Candidate[],
  f: Filters,
  chosen: Map<string, Candidate>,
): boolean {
  return frontier.some((node) =>
    neighboursOf(r, node.id, f, chosen.size + 1).some(([id]) => !chosen.has(id)),
  );
}

function typeClause(f: Filters, alias: string): { sql: string; params: string[] } {
  return f.types
    ? { sql: ` AND ${alias}.type IN (SELECT value FROM json_each(?))`, params: [json(f.types)] }
    : { sql: '', params: [] };
}

/** The memories a walk may show: of the chosen layers, and visible to the reader (visibility.ts). */
function memoryClause(f: Filters, alias: string): { sql: string; params: string[] } {
  const visible = visibleCondition(f.viewer, alias);
  const layers = f.layers
    ? { sql: ` AND ${alias}.layer IN (SELECT value FROM json_each(?))`, params: [json(f.layers)] }
    : { sql: '', params: [] };
  return { sql: `${layers.sql} AND ${visible.sql}`, params: [...layers.params, ...visible.params] };
}

/** A node's strongest neighbours as [node id, strength 0..1]. */
function neighboursOf(r: SqlReader, nodeId: string, f: Filters, fanOut: number): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  const type = typeClause(f, 'e');
  if (nodeId.startsWith('e:')) {
    const entityId = Number(nodeId.slice(2));
    for (const [near, far] of [
      ['source_id', 'target_id'],
      ['target_id', 'source_id'],
    ] as const) {
      const rows = r.all<{ id: number; s: number }>(
        `SELECT r.${far} AS id, max(r.strength) AS s FROM relations r JOIN entities e ON e.id = r.${far}
         WHERE r.${near} = ? AND e.merged_into IS NULL${type.sql} GROUP BY r.${far} ORDER BY s DESC LIMIT ?`,
        [entityId, ...type.params, fanOut],
      );
      for (const row of rows) out.push([entityKey(row.id), row.s]);
    }
    if (f.layers === undefined || f.layers.length > 0) {
      const layer = memoryClause(f, 'm');
      const rows = r.all<{ id: string; w: number }>(
        `SELECT me.memory_id AS id, me.weight AS w FROM memory_entities me
         JOIN memories m ON m.id = me.memory_id AND m.superseded_at IS NULL AND m.status = 'active'${layer.sql}
         WHERE me.entity_id = ? ORDER BY me.weight DESC LIMIT ?`,
        [...layer.params, entityId, fanOut],
      );
      for (const row of rows) out.push([memoryKey(row.id), row.w]);
    }
  } else {
    const rows = r.all<{ id: number; w: number }>(
      `SELECT me.entity_id AS id, me.weight AS w FROM memory_entities me JOIN entities e ON e.id = me.entity_id
       WHERE me.memory_id = ? AND e.merged_into IS NULL${type.sql} ORDER BY me.weight DESC LIMIT ?`,
      [nodeId.slice(2), ...type.params, fanOut],
    );
    for (const row of rows) out.push([entityKey(row.id), row.w]);
  }
  return out;
}

/**
 * The overview: the entities most memories mention (a third of the limit at most, so memories
 * have room), then the memories among their strongest mentions that name most of them.
 */
function overview(r: SqlReader, f: Filters): GraphPayload {
  const type = typeClause(f, 'e');
  const entityBudget = Math.max(1, Math.ceil(f.limit / 3));
  const memoryAllowed = f.layers === undefined || f.layers.length > 0;
  const entityRows = r.all<{ id: number; n: number }>(
    `SELECT me.entity_id AS id, count(*) AS n FROM memory_entities me JOIN entities e ON e.id = me.entity_id
     WHERE e.merged_into IS NULL${type.sql} GROUP BY me.entity_id ORDER BY n DESC, me.entity_id LIMIT ?`,
    [...type.params, (memoryAllowed ? entityBudget : f.limit) + 1],
  );
  let truncated = entityRows.length > (memoryAllowed ? entityBudget : f.limit);
  const entities = entityRows.slice(0, memoryAllowed ? entityBudget : f.limit);
  const chosen: Candidate[] = entities.map((e) => ({ id: entityKey(e.id), score: e.n, hops: 0 }));
  const remaining = f.limit - chosen.length;
  if (memoryAllowed && remaining > 0 && entities.length > 0) {
    // Each top entity offers its strongest mentions (an indexed, limited read, not a scan of every
    // link); memories offered by more of them rank first.
    const layer = memoryClause(f, 'm');
    const perEntity = Math.max(3, Math.ceil((2 * remaining) / entities.length));
    const offered = new Map<string, { id: string; count: number; weight: number }>();
    for (const entity of entities) {
      for (const row of r.all<{ id: string; w: number }>(
        `SELECT me.memory_id AS id, me.weight AS w FROM memory_entities me
         JOIN memories m ON m.id = me.memory_id AND m.superseded_at IS NULL AND m.status = 'active'${layer.sql}
         WHERE me.entity_id = ? ORDER BY me.weight DESC LIMIT ?`,
        [...layer.params, entity.id, perEntity],
      )) {
        const prior = offered.get(row.id) ?? { id: row.id, count: 0, weight: 0 };
        offered.set(row.id, { id: row.id, count: prior.count + 1, weight: prior.weight + row.w });
      }
    }
    const ranked = [...offered.values()].sort(
      (a, b) => b.count - a.count || b.weight - a.weight || a.id.localeCompare(b.id),
    );
    if (ranked.length > remaining) truncated = true;
    for (const m of ranked.slice(0, remaining)) chosen.push({ id: memoryKey(m.id), score: m.count, hops: 1 });
  }
  return { ...payloadFor(r, chosen), seeds: [], truncated, limit: f.limit };
}
