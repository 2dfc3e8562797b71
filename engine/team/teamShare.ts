import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { invalidInput } from '../errors';
import { redactSecrets } from '../extract/secrets';
import type { MemoryStore } from '../memory/memoryStore';
import { currentMemory } from '../memory/memoryQueries';
import type { Layer, Memory } from '../memory/types';
import type { SqlReader } from '../store/sqlAccess';
import { CONFLICT_NOTE, CONFLICT_TAG, setStatus, TEAM_ACTOR } from './alignMemory';
import { conflictSides } from './conflictSides';
import { fileHash, teamFileRelative, writeTeamFile } from './teamDirectory';
import { parseTeamFile, renderTeamFile, TEAM_LAYERS, TEAM_TAG } from './teamFile';
import type { TeamEntry } from './teamFile';
import { saveTeamRow, teamRowOfMemory } from './teamRows';
import type { TeamRow } from './teamRows';

/** The tag that proposes a local memory for sharing (`engram team propose`); sharing removes it. */
export const PROPOSED_TAG = 'team-proposed';

export interface TeamWrite {
  teamId: string;
  memoryId: string;
  /** Relative to the workspace root. */
  file: string;
  version: number;
  /** The file's text (what was written, or would be with `dryRun`). */
  text: string;
  /** `written` a new version, `unchanged` the file already said this, `preview` a dry run. */
  outcome: 'written' | 'unchanged' | 'preview';
}

export interface TeamWriteOptions {
  root: string;
  /**
   * Who shares it first, asked only when a file that names no author is written (it may run
   * git: an edit of a memory that is not a team memory must not pay for it).
   */
  author: () => string | null;
  dryRun?: boolean;
}

/** Shares a local memory: writes its file under `.engram/team/` (the first version, or a new one). */
export async function shareMemory(
  store: MemoryStore,
  memoryId: string,
  options: TeamWriteOptions,
): Promise<TeamWrite> {
  const memory = store.read((r) => currentMemory(r, memoryId));
  const row = store.read((r) => teamRowOfMemory(r, memoryId));
  if (row && row.memoryId !== memoryId)
    throw invalidInput(
      `memory ${memoryId} is their side of a git conflict in ${teamFileRelative(row.teamId)}: resolve the file`,
    );
  if (!isTeamLayer(memory.layer))
    throw invalidInput(
      `a ${memory.layer} memory cannot be shared: only episodic, semantic and procedural ones`,
    );
  if (memory.status !== 'active' && !row)
    throw invalidInput(`memory ${memoryId} is ${memory.status}: only an active memory can be shared`);
  return writeTeamVersion(store, memory, row, options);
}

/**
 * After a write to memories: each that is a team memory gets a new version of its file. A team
 * memory superseded by one that is not shared yet shares its successor first, so the old file can
 * name it. Returns what was written.
 */
export async function rewriteTeamFiles(
  store: MemoryStore,
  memoryIds: readonly string[],
  options: TeamWriteOptions,
): Promise<TeamWrite[]> {
  const writes: TeamWrite[] = [];
  for (const id of memoryIds) {
    const row = store.read((r) => teamRowOfMemory(r, id));
    if (!row || row.memoryId !== id) continue;
    const memory = store.read((r) => currentMemory(r, id));
    if (memory.supersededBy && !store.read((r) => teamRowOfMemory(r, memory.supersededBy!)))
      writes.push(await shareMemory(store, memory.supersededBy, options));
    writes.push(await writeTeamVersion(store, memory, row, options));
  }
  return writes;
}

function isTeamLayer(layer: Layer): layer is TeamEntry['layer'] {
  return (TEAM_LAYERS as readonly Layer[]).includes(layer);
}

async function writeTeamVersion(
  store: MemoryStore,
  memory: Memory,
  row: TeamRow | undefined,
  options: TeamWriteOptions,
): Promise<TeamWrite> {
  const teamId = row?.teamId ?? memory.id;
  const file = teamFileRelative(teamId);
  const onDisk = readExisting(options.root, file);
  const entry = store.read((r) => entryOf(r, memory, teamId, onDisk.entry, options.author));
  entry.claims = await claimsOf(memory.content);
  const base = row?.fileVersion ?? onDisk.entry?.version ?? 1;
  let text = renderTeamFile({ ...entry, version: base });
  const unchanged = text === onDisk.text;
  if (!unchanged && onDisk.text !== undefined) text = renderTeamFile({ ...entry, version: base + 1 });
  const version = unchanged || onDisk.text === undefined ? base : base + 1;
  const secrets = redactSecrets(text).redactions.map((r) => r.kind);
  if (secrets.length > 0)
    throw invalidInput(
      `memory ${memory.id} holds what looks like a secret (${[...new Set(secrets)].join(', ')}): not shared`,
    );
  const result = { teamId, memoryId: memory.id, file, version, text };
  if (options.dryRun) return { ...result, outcome: 'preview' };
  if (!unchanged) writeTeamFile(options.root, teamId, text);
  store.write((tx, now) => {
    saveTeamRow(tx, {
      teamId,
      memoryId: memory.id,
      theirsId: null,
      contentHash: fileHash(text),
      fileVersion: version,
      changedAt: unchanged && row ? row.changedAt : now,
      changedBy: unchanged && row ? row.changedBy : 'local',
      lastChange: row ? (unchanged ? row.lastChange : 'edited') : 'added',
    });
    // Writing the file resolved a conflict with this side: the other side leaves recall.
    if (row?.theirsId) {
      const other = currentMemory(tx, row.theirsId);
      if (other.status !== 'archived')
        setStatus(
          store,
          tx,
          now,
          other,
          { status: 'archived', statusReason: `git conflict in ${file} resolved` },
          'archived',
        );
    }
    const current = currentMemory(tx, memory.id);
    const tags = [
      ...current.tags.filter((t) => t !== PROPOSED_TAG && t !== CONFLICT_TAG && t !== TEAM_TAG),
      TEAM_TAG,
    ];
    const noted = current.context?.startsWith(CONFLICT_NOTE) === true;
    if (current.status === 'active' && (noted || JSON.stringify(tags) !== JSON.stringify(current.tags)))
      store.edit(memory.id, { tags, ...(noted ? { context: null } : {}) }, TEAM_ACTOR);
  });
  return { ...result, outcome: unchanged ? 'unchanged' : 'written' };
}

/** The file as it is now (our side of a conflict), so a rewrite keeps its author and supersedes. */
function readExisting(root: string, file: string): { text?: string; entry?: TeamEntry } {
  let text: string;
  try {
    text = readFileSync(path.join(root, file), 'utf8');
  } catch {
    return {};
  }
  try {
    return { text, entry: parseTeamFile(conflictSides(text)?.ours ?? text, file) };
  } catch {
    return { text };
  }
}

function entryOf(
  reader: SqlReader,
  memory: Memory,
  teamId: string,
  existing: TeamEntry | undefined,
  author: () => string | null,
): TeamEntry {
  const teamIdOf = (id: string) => teamRowOfMemory(reader, id)?.teamId;
  const replaced = reader
    .all<{ id: string }>('SELECT id FROM memories WHERE superseded_at IS NULL AND superseded_by = ?', [
      memory.id,
    ])
    .map((r) => teamIdOf(r.id))
    .filter((id): id is string => id !== undefined);
  const ended = memory.status === 'invalidated' || memory.status === 'superseded';
  return {
    id: teamId,
    version: 1,
    kind: memory.kind,
    // A team memory moved to a layer the team does not share keeps the layer its file had.
    layer: isTeamLayer(memory.layer) ? memory.layer : (existing?.layer ?? 'semantic'),
    tags: memory.tags.filter((t) => t !== TEAM_TAG && t !== CONFLICT_TAG && t !== PROPOSED_TAG),
    validFrom: memory.validFrom,
    validTo: ended ? (memory.validTo ?? memory.recordedAt) : null,
    author: existing ? existing.author : author(),
    supersedes: [...new Set([...(existing?.supersedes ?? []), ...replaced])].sort(),
    supersededBy:
      memory.status === 'superseded' && memory.supersededBy ? (teamIdOf(memory.supersededBy) ?? null) : null,
    reason: ended ? memory.statusReason : null,
    claims: [],
    content: memory.content,
  };
}

/** What drift will check in the text, for the reviewer (the checker loads only when needed). */
async function claimsOf(content: string): Promise<string[]> {
  const { extractClaims } = await import('../drift/claimExtractor');
  return [...new Set(extractClaims(content).map((c) => `${c.kind} ${c.subject}`))];
}

/** The git user of the workspace, the author a share records when no agent is named. */
export function gitUserName(root: string): string | null {
  const run = spawnSync('git', ['config', 'user.name'], { cwd: root, encoding: 'utf8' });
  return run.status === 0 && run.stdout.trim() !== '' ? run.stdout.trim() : null;
}
