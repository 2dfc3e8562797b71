import type { MemoryStore } from '../memory/memoryStore';
import { CURRENT_SELECT, reviseVersion, toMemory } from '../memory/rows';
import type { MemoryRow } from '../memory/rows';
import { currentMemory } from '../memory/memoryQueries';
import type { Memory } from '../memory/types';
import { allForIds } from '../store/idLists';
import type { SqlReader, SqlWriter } from '../store/sqlAccess';
import { candidateClusters, candidateVectors } from './candidateClusters';
import { fadedSessions } from './fadedSessions';
import { termRarity, writeGist } from './gist';
import { applyPattern, planPatterns } from './lessonPatterns';
import type { PatternPlan } from './lessonPatterns';
import { lifecycleFacts } from './lifecycleFacts';
import type { LifecycleRules } from './lifecycleFacts';
import { lifecycleRulesOf, storedLifecycleSettings } from './lifecycleSettings';
import { NOT_A_CARD } from './storedPeerCards';
import type { SummaryOrigin } from './modelSummaries';
import type { SummaryRequest } from './summariser';

/**
 * Consolidation ("sleep", issue 21 section 3; seed 000's four steps, seed 003's dream cycle), two
 * kinds of cluster, each becoming one semantic memory whose members are superseded by it (out of
 * recall, still in history, brought back with `undoConsolidation`, consolidationUndo.ts):
 * - relevant: working and episodic memories that proved relevant (composite importance >= 0.5,
 *   recalled twice, linked to entities), clustered by the entities they share (union-find);
 * - faded: the episodes of one session whose retention has fallen below half (fadedSessions.ts);
 * - pattern: a lesson capture wrote that recurs across sessions becomes one procedural memory, or
 *   confirms the procedural memory that already says it (lessonPatterns.ts).
 * A relevant or faded cluster's text is the members' informative sentences (gist.ts), its importance the members' highest,
 * its tags theirs, the member ids its provenance. Never across private scopes of different agents.
 */
export const CONSOLIDATION_RULE = {
  minImportance: 0.5,
  minAccesses: 2,
  minClusterSize: 2,
};
/** The tag of a consolidated memory whose summary a language model wrote (modelSummaries.ts). */
export const MODEL_WRITTEN = 'model-written';
/** An entity linked to more than this share of the candidates says nothing about what goes together. */
const MAX_ENTITY_SHARE = 0.2;

export interface ConsolidationCluster {
  /**
   * `relevant`: recalled memories sharing entities; `faded`: one session's faded episodes;
   * `pattern`: a lesson recurring across sessions (lessonPatterns.ts).
   */
  reason: 'relevant' | 'faded' | 'pattern';
  members: string[];
  /** The members whose sentences the summary quotes (the others' text is only in history). */
  quoted: string[];
  entities: string[];
  summary: string;
  importance: number;
  /** min(1, size / 5): larger clusters are backed by more evidence (seed 000); a pattern's sessions. */
  confidence: number;
  /** `pattern` only: the rule, the sessions, and the memory it confirms instead of a new one. */
  pattern?: PatternPlan;
  /**
   * Set when model summaries were given (modelSummaries.ts): the model that wrote `summary`, or
   * why the extractive gist stayed. Unset: extractive, no model asked.
   */
  origin?: SummaryOrigin;
  /** A dry run with `summaryRequests`: what would be sent to a model for this cluster. */
  request?: SummaryRequest;
}

export function planConsolidation(reader: SqlReader, now: number): ConsolidationCluster[] {
  // The retention the database's lifecycle settings say (decay off: nothing fades), read here so
  // that the plan worker, on its copy of the database, follows them as the host's own run does.
  const rules = lifecycleRulesOf(storedLifecycleSettings(reader));
  const relevant = relevantClusters(reader, now, rules);
  const taken = new Set(relevant.flatMap((c) => c.members.map((m) => m.id)));
  const faded = fadedSessions(reader, now, taken, rules);
  // How rare a word is, over everything this run consolidates: what the summaries keep.
  const rarity = termRarity([...relevant.flatMap((c) => c.members), ...faded.flat()].map((m) => m.content));
  const cluster = (reason: ConsolidationCluster['reason'], members: Memory[], entities: string[]) => {
    const gist = writeGist(members, rarity, entities);
    return {
      reason,
      members: members.map((m) => m.id),
      quoted: gist.quoted,
      entities,
      summary: gist.text,
      importance: Math.max(...members.map((m) => m.importance)),
      confidence: Math.min(1, members.length / 5),
    };
  };
  const patterns = planPatterns(reader).map(({ members, ...pattern }) => ({
    reason: 'pattern' as const,
    members: members.map((m) => m.id),
    quoted: members.map((m) => m.id),
    entities: [],
    ...pattern,
  }));
  return [
    ...relevant.map((c) => cluster('relevant', c.members, c.entities)),
    ...faded.map((members) => cluster('faded', members, [])),
    ...patterns,
  ];
}

function relevantClusters(
  reader: SqlReader,
  now: number,
  rules: LifecycleRules,
): Array<{ members: Memory[]; entities: string[] }> {
  const rows = reader
    .all<MemoryRow>(
      `${CURRENT_SELECT} WHERE m.superseded_at IS NULL AND m.status = 'active'
       AND m.layer IN ('working', 'episodic') AND ${NOT_A_CARD} AND coalesce(s.access_count, 0) >= ? ORDER BY m.valid_from, m.id`,
      [CONSOLIDATION_RULE.minAccesses],
    )
    .map(toMemory);
  const facts = new Map(lifecycleFacts(reader, rows, now, rules).map((f) => [f.memoryId, f]));
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
  // Memories of one shelf that share a telling entity, refined by similarity where vectors exist.
  const vectors = candidateVectors(
    reader,
    candidates.map((m) => m.id),
  );
  return candidateClusters(candidates, links, telling, vectors)
    .filter((members) => members.length >= CONSOLIDATION_RULE.minClusterSize)
    .map((members) => {
      const entityIds = [...new Set(members.flatMap((m) => links.get(m.id) ?? []))].filter(telling);
      const entities = entityIds.map((id) => names.get(id) ?? '').filter((n) => n !== '');
      return { members, entities };
    });
}

/**
 * Writes each cluster's memory and supersedes its members by it, in one transaction. Returns the
 * memory each applied cluster now lives in: a new one, or for a pattern the one it confirmed.
 */
export function applyConsolidation(store: MemoryStore, clusters: readonly ConsolidationCluster[]): string[] {
  return store.write((tx, now) => {
    const made: string[] = [];
    for (const cluster of clusters) {
      const members = cluster.members.map((id) => currentMemory(tx, id));
      if (members.some((m) => m.status !== 'active')) continue;
      if (cluster.pattern) {
        const into = applyPattern(store, tx, now, members, cluster.pattern, cluster);
        if (into !== undefined) made.push(into);
        continue;
      }
      // A cluster is one shelf (scope and agent): the gist of an agent's private memories stays
      // that agent's private memory, or any reader would see what they hid (visibility.ts).
      const shelf = members[0]!;
      const owner = shelf.scope === 'private' ? shelf.agent : 'engram-lifecycle';
      // A model's summary is marked (tag, context, trust below the extractive gist's): it says
      // what a model read into the members, not their own sentences.
      const model = cluster.origin?.by === 'model' ? cluster.origin.model : undefined;
      const trust = model === undefined ? 'consolidation' : 'model';
      const writtenBy = model === undefined ? '' : `; summary written by ${model} (${MODEL_WRITTEN})`;
      const result = store.remember(
        {
          content: cluster.summary,
          context: `Consolidated from ${members.length} memories (${cluster.reason}, confidence ${cluster.confidence}${writtenBy}): ${cluster.members.join(', ')}`,
          layer: 'semantic',
          // The gist of past episodes is about their time: asOf and temporal questions see it there.
          validFrom: Math.min(...members.map((m) => m.validFrom)),
          session: new Set(members.map((m) => m.session)).size === 1 ? members[0]!.session : null,
          kind: 'summary',
          tags: [
            ...new Set([...members.flatMap((m) => m.tags), ...(model === undefined ? [] : [MODEL_WRITTEN])]),
          ],
          importance: cluster.importance,
          trust,
          scope: shelf.scope,
          dedupe: false,
        },
        { ...(owner === null ? {} : { agent: owner }), trust },
      );
      const id = result.memory.id;
      sumMemberEntityWeights(tx, id, cluster.members);
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
        data: {
          reason: cluster.reason,
          members: cluster.members,
          quoted: cluster.quoted,
          confidence: cluster.confidence,
          ...(cluster.origin ? { summary: cluster.origin } : {}),
        },
      });
      made.push(id);
    }
    return made;
  });
}

/**
 * The consolidated memory's entity weights are its members' summed (seed 000), for the entities
 * its text names (its links): an entity three members named weighs three times one naming.
 * Entities only the sentences the gist left out named are not linked: the memory does not say
 * them (they stay on the members, in history).
 */
function sumMemberEntityWeights(tx: SqlWriter, id: string, memberIds: readonly string[]): void {
  // One statement (one journal entry) per cluster; the member list as JSON has no variable limit.
  tx.run(
    `UPDATE memory_entities SET weight = (
       SELECT sum(me.weight) FROM memory_entities me
       WHERE me.memory_id IN (SELECT value FROM json_each(?1)) AND me.entity_id = memory_entities.entity_id)
     WHERE memory_id = ?2
       AND entity_id IN (SELECT entity_id FROM memory_entities WHERE memory_id IN (SELECT value FROM json_each(?1)))`,
    [JSON.stringify(memberIds), id],
  );
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
