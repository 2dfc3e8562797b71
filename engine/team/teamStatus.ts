import type { SqlReader } from '../store/sqlAccess';
import { readTeamDirectory, teamFileRelative } from './teamDirectory';
import { PROPOSED_TAG } from './teamShare';
import { teamRows } from './teamRows';
import type { TeamChange } from './teamRows';

export interface TeamStatusMemory {
  memoryId: string;
  excerpt: string;
}

export interface TeamStatus {
  root: string;
  /** Local memories tagged `team-proposed` that are not shared yet. */
  proposed: TeamStatusMemory[];
  /** Files that differ from what this clone last indexed (the next open or `team sync` takes them in). */
  pending: Array<{ teamId: string; file: string; change: 'added' | 'changed' | 'removed' }>;
  /** Team memories the files changed since `since` (a pull, merge or branch switch), the latest first. */
  changedUpstream: Array<TeamStatusMemory & { teamId: string; change: TeamChange; at: number }>;
  /** Files holding git conflict markers: both sides are in the index until the file is resolved. */
  conflicts: Array<{ teamId: string; file: string; ours: string; theirs: string }>;
  /** Team memories whose last drift check found them moved, stale or dead. */
  stale: Array<TeamStatusMemory & { teamId: string; drift: string }>;
}

const EXCERPT = 120;

/** Reads only: what `engram team status` shows. */
export function teamStatus(reader: SqlReader, root: string, since: number): TeamStatus {
  const rows = teamRows(reader);
  const excerpt = (id: string) =>
    (reader.value<string>('SELECT content FROM memories WHERE id = ? AND superseded_at IS NULL', [id]) ?? '')
      .replace(/\s+/g, ' ')
      .slice(0, EXCERPT);
  const byId = new Map(rows.map((r) => [r.teamId, r]));
  const pending: TeamStatus['pending'] = [];
  const onDisk = readTeamDirectory(root);
  for (const file of onDisk) {
    const row = byId.get(file.teamId);
    if (row?.contentHash === file.hash) continue;
    pending.push({
      teamId: file.teamId,
      file: file.relative,
      change: row?.contentHash ? 'changed' : 'added',
    });
  }
  const present = new Set(onDisk.map((f) => f.teamId));
  for (const row of rows)
    if (row.contentHash !== null && !present.has(row.teamId))
      pending.push({ teamId: row.teamId, file: teamFileRelative(row.teamId), change: 'removed' });
  const shared = new Set(rows.flatMap((r) => [r.memoryId, ...(r.theirsId ? [r.theirsId] : [])]));
  const proposed = reader
    .all<{ id: string }>(
      "SELECT id FROM memories WHERE superseded_at IS NULL AND status = 'active' AND tags LIKE ? ORDER BY id",
      [`%"${PROPOSED_TAG}"%`],
    )
    .filter((m) => !shared.has(m.id))
    .map((m) => ({ memoryId: m.id, excerpt: excerpt(m.id) }));
  const changedUpstream = rows
    .filter((r) => r.changedBy === 'files' && r.changedAt >= since)
    .sort((a, b) => b.changedAt - a.changedAt)
    .map((r) => ({
      teamId: r.teamId,
      memoryId: r.memoryId,
      change: r.lastChange,
      at: r.changedAt,
      excerpt: excerpt(r.memoryId),
    }));
  const conflicts = rows
    .filter((r) => r.theirsId !== null)
    .map((r) => ({
      teamId: r.teamId,
      file: teamFileRelative(r.teamId),
      ours: r.memoryId,
      theirs: r.theirsId!,
    }));
  const stale = rows
    .filter((r) => r.contentHash !== null)
    .map((r) => ({
      row: r,
      drift: reader.value<string>('SELECT status FROM drift_memories WHERE memory_id = ?', [r.memoryId]),
    }))
    .filter(({ drift }) => drift === 'moved' || drift === 'stale' || drift === 'dead')
    .map(({ row, drift }) => ({
      teamId: row.teamId,
      memoryId: row.memoryId,
      drift: drift!,
      excerpt: excerpt(row.memoryId),
    }));
  return { root, proposed, pending, changedUpstream, conflicts, stale };
}
