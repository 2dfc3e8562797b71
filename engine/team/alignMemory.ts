import type { MemoryStore } from '../memory/memoryStore';
import { currentMemory } from '../memory/memoryQueries';
import { reviseVersion } from '../memory/rows';
import type { Memory, MemoryVersion } from '../memory/types';
import type { SqlWriter } from '../store/sqlAccess';
import type { TeamEntry } from './teamFile';
import { TEAM_TAG } from './teamFile';

/** Both sides of a team memory whose file holds git conflict markers carry this tag. */
export const CONFLICT_TAG = 'team-conflict';

/** How the context of either side of a conflict starts (the index sets and clears it). */
export const CONFLICT_NOTE = 'git conflict in ';

/** Who the index writes as: the ledger shows which versions came from the team's files. */
export const TEAM_ACTOR = { agent: 'engram-team' } as const;

/** The tags a local memory of `entry` carries: the file's, and the team marks. */
export function localTags(entry: TeamEntry, conflicted: boolean): string[] {
  const tags = entry.tags.filter((t) => t !== TEAM_TAG && t !== CONFLICT_TAG);
  return [...tags, TEAM_TAG, ...(conflicted ? [CONFLICT_TAG] : [])];
}

/** A new local memory holding `entry` (the first index of its file in this clone). */
export function createFromEntry(
  store: MemoryStore,
  entry: TeamEntry,
  tags: string[],
  context: string | null,
): string {
  const result = store.remember(
    {
      content: entry.content,
      context,
      kind: entry.kind,
      layer: entry.layer,
      tags,
      validFrom: entry.validFrom,
      trust: 'human',
      dedupe: false,
    },
    TEAM_ACTOR,
  );
  return result.memory.id;
}

/**
 * Brings a local memory to what `entry` says, each change a new version (nothing is overwritten):
 * the text, kind, layer and tags through the store's edit (which re-indexes them), then valid time
 * and status. `supersededBy` is the local id of the memory that replaced it, when known here.
 */
export function alignMemory(
  store: MemoryStore,
  tx: SqlWriter,
  now: number,
  memoryId: string,
  entry: TeamEntry,
  tags: string[],
  supersededBy: string | null,
): void {
  let memory = currentMemory(tx, memoryId);
  const changes = {
    ...(memory.content !== entry.content ? { content: entry.content } : {}),
    ...(memory.kind !== entry.kind ? { kind: entry.kind } : {}),
    ...(memory.layer !== entry.layer ? { layer: entry.layer } : {}),
    ...(JSON.stringify(memory.tags) !== JSON.stringify(tags) ? { tags } : {}),
  };
  if (Object.keys(changes).length > 0) {
    if (memory.status !== 'active')
      memory = setStatus(store, tx, now, memory, { status: 'active' }, 'restored');
    store.edit(memory.id, changes, TEAM_ACTOR);
    memory = currentMemory(tx, memoryId);
  }
  if (memory.validFrom !== entry.validFrom) {
    reviseVersion(tx, memory, { validFrom: entry.validFrom }, 'edited', now);
    memory = currentMemory(tx, memoryId);
  }
  const target = targetStatus(entry, supersededBy);
  if (
    memory.status !== target.status ||
    memory.validTo !== target.validTo ||
    (target.status === 'superseded' && memory.supersededBy !== target.supersededBy)
  ) {
    const change =
      target.status === 'active'
        ? 'restored'
        : target.status === 'invalidated'
          ? 'invalidated'
          : 'superseded';
    setStatus(store, tx, now, memory, target, change);
  }
}

function targetStatus(entry: TeamEntry, supersededBy: string | null): Partial<MemoryVersion> {
  if (entry.supersededBy !== null)
    return { status: 'superseded', statusReason: entry.reason, validTo: entry.validTo, supersededBy };
  if (entry.validTo !== null)
    return { status: 'invalidated', statusReason: entry.reason, validTo: entry.validTo, supersededBy: null };
  return { status: 'active', statusReason: null, validTo: null, supersededBy: null };
}

/** A new version with `patch` (a status and what goes with it), and its event in the ledger. */
export function setStatus(
  store: MemoryStore,
  tx: SqlWriter,
  now: number,
  memory: Memory,
  patch: Partial<MemoryVersion>,
  change: 'restored' | 'invalidated' | 'superseded' | 'archived',
): Memory {
  const full: Partial<MemoryVersion> =
    patch.status === 'active' ? { statusReason: null, validTo: null, supersededBy: null, ...patch } : patch;
  reviseVersion(tx, memory, full, change, now);
  const type = (
    { restored: 'restore', invalidated: 'invalidate', superseded: 'supersede', archived: 'archive' } as const
  )[change];
  store.ledger.append(tx, now, {
    type,
    memoryId: memory.id,
    agent: TEAM_ACTOR.agent,
    data: full.statusReason ? { reason: full.statusReason } : undefined,
  });
  return currentMemory(tx, memory.id);
}
