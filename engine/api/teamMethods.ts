import { z } from 'zod';
import { viewerOf } from '../memory/visibility';
import { invalidInput } from '../errors';
import { currentMemory, resolveId } from '../memory/memoryQueries';
import type { DriftReport } from '../drift/driftReport';
import type { Memory, RememberManyResult, RememberResult } from '../memory/types';
import { syncTeamFiles } from '../team/teamIndex';
import { gitUserName, PROPOSED_TAG, rewriteTeamFiles, shareMemory } from '../team/teamShare';
import { teamStatus } from '../team/teamStatus';
import { TEAM_TAG } from '../team/teamFile';
import type { EngineContext } from './engineContext';
import { defineMethod, methodParams } from './defineMethod';
import { ID_PARAMS } from './memoryParams';
import { idParam, timeParam } from './paramFields';
import { actorOf } from './params';

/** How far back `teamStatus` lists changes the files brought, unless `since` says. */
const DEFAULT_SINCE_MS = 7 * 24 * 60 * 60 * 1000;

const TEAM_SHARE_PARAMS = methodParams({
  id: idParam,
  /** Answer with the file that would be written, write nothing. */
  dryRun: z.boolean().optional(),
});

const TEAM_STATUS_PARAMS = methodParams({ since: timeParam.optional() });

function teamRoot(engine: EngineContext): string {
  const root = engine.code?.options.root;
  if (root === undefined) throw invalidInput('team memories need a workspace (not --db or --user alone)');
  return root;
}

/** Who a share names as the author: the acting agent, else the workspace's git user. */
function authorOf(
  engine: EngineContext,
  params: { actor?: { agent?: string | null } | undefined },
): string | null {
  return params.actor?.agent ?? gitUserName(teamRoot(engine));
}

/**
 * After a write to a memory: a team memory's file gets a new version (docs/team.md). Without a
 * workspace there are no team files to keep in step.
 */
async function rewriteAfter(
  engine: EngineContext,
  params: { actor?: { agent?: string | null } | undefined },
  memoryIds: readonly string[],
): Promise<void> {
  const root = engine.code?.options.root;
  if (root === undefined || memoryIds.length === 0) return;
  await rewriteTeamFiles(engine.store, memoryIds, { root, author: () => authorOf(engine, params) });
}

export const rewriteEdited = (engine: EngineContext, params: object, memory: Memory) =>
  rewriteAfter(engine, params, [memory.id]);

/** A remember that superseded team memories (same conflict key) writes their new versions. */
export const rewriteSuperseded = (engine: EngineContext, params: object, result: RememberResult) =>
  rewriteAfter(engine, params, result.superseded);

/** The same for each memory of a batch (a rejected one superseded nothing). */
export const rewriteSupersededInBatch = (
  engine: EngineContext,
  params: object,
  results: readonly RememberManyResult[],
) =>
  rewriteAfter(
    engine,
    params,
    results.flatMap((r) => (r.outcome === 'rejected' ? [] : r.superseded)),
  );

/** A drift repair (rewrite, invalidate) of team memories writes their new versions; a dry run writes nothing. */
export const rewriteRepaired = (engine: EngineContext, params: object, report: DriftReport) =>
  report.fix && !report.fix.dryRun
    ? rewriteAfter(
        engine,
        params,
        report.fix.actions.filter((a) => a.action !== 'review').map((a) => a.id),
      )
    : Promise.resolve();

/**
 * Team memories shared through git (engine/team, docs/team.md). Not exactly-once writes except
 * `teamPropose`: sharing and indexing write files and are idempotent (a repeat writes the same
 * bytes and indexes nothing new).
 *
 * - `teamShare` {id, dryRun?} -> TeamWrite: writes `.engram/team/<id>.md`.
 * - `teamSync` {} -> TeamSyncResult: indexes the files that changed since the last index.
 * - `teamStatus` {since?} -> TeamStatus: proposed, pending, changed upstream, conflicts, stale.
 * - `teamPropose` {id} -> Memory: tags a memory `team-proposed`.
 */
export const TEAM_METHODS = {
  teamShare: defineMethod({
    params: TEAM_SHARE_PARAMS,
    write: false,
    run: (engine, p) => {
      const root = teamRoot(engine);
      const id = engine.store.read((r) => resolveId(r, p.id, viewerOf(p)));
      return shareMemory(engine.store, id, {
        root,
        author: () => authorOf(engine, p),
        dryRun: p.dryRun === true,
      });
    },
  }),
  teamSync: defineMethod({
    params: methodParams({}),
    write: false,
    run: (engine) => syncTeamFiles(engine.store, teamRoot(engine)),
  }),
  teamStatus: defineMethod({
    params: TEAM_STATUS_PARAMS,
    write: false,
    run: (engine, p) => {
      const root = teamRoot(engine);
      const since = p.since ?? engine.store.clock() - DEFAULT_SINCE_MS;
      return engine.store.read((r) => teamStatus(r, root, since));
    },
  }),
  teamPropose: defineMethod({
    params: ID_PARAMS,
    write: true,
    run: ({ store }, p) => {
      const memory = store.read((r) => currentMemory(r, resolveId(r, p.id, viewerOf(p))));
      // Already proposed or shared: proposing again changes nothing.
      if (memory.tags.includes(PROPOSED_TAG) || memory.tags.includes(TEAM_TAG)) return memory;
      return store.edit(memory.id, { tags: [...memory.tags, PROPOSED_TAG] }, actorOf(p));
    },
  }),
} as const;
