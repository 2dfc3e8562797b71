import { EngramError } from '../errors';
import type { MemoryStore } from '../memory/memoryStore';
import { currentMemory } from '../memory/memoryQueries';
import type { SqlWriter } from '../store/sqlAccess';
import { alignMemory, CONFLICT_NOTE, createFromEntry, localTags, setStatus, TEAM_ACTOR } from './alignMemory';
import { conflictSides } from './conflictSides';
import { readTeamDirectory } from './teamDirectory';
import type { TeamFileOnDisk } from './teamDirectory';
import { parseTeamFile } from './teamFile';
import type { TeamEntry } from './teamFile';
import { saveTeamRow, teamRow, teamRows } from './teamRows';
import type { TeamChange, TeamRow } from './teamRows';

/** What one index of the team files changed, by team id. */
export interface TeamSyncResult {
  added: string[];
  edited: string[];
  retired: string[];
  /** Files holding git conflict markers: both sides are indexed until the file is resolved. */
  conflicts: string[];
  resolved: string[];
  /** Files that could not be read as team memories, with the one-line reason; indexed once fixed. */
  errors: Array<{ file: string; message: string }>;
  unchanged: number;
}

/** Files indexed per transaction: an index killed half way keeps the batches it finished. */
const FILES_PER_TRANSACTION = 100;

interface ReadFile {
  file: TeamFileOnDisk;
  ours: TeamEntry;
  theirs: TeamEntry | undefined;
}

/**
 * Indexes `.engram/team/*.md` into the local database: only files whose bytes changed since the
 * last index are read (their hash is kept in `team_files`, written with the memory), a batch of
 * files per transaction, so an index killed half way resumes after the last batch it finished.
 * A file gone from the branch retires its memory (archived, restored when the file comes back).
 * Writes nothing when nothing changed: opening a store to read it must not grow the journal.
 */
export function syncTeamFiles(store: MemoryStore, root: string): TeamSyncResult {
  const result: TeamSyncResult = {
    added: [],
    edited: [],
    retired: [],
    conflicts: [],
    resolved: [],
    errors: [],
    unchanged: 0,
  };
  const rows = new Map(store.read(teamRows).map((row) => [row.teamId, row]));
  const files = readTeamDirectory(root);
  const changed: ReadFile[] = [];
  for (const file of files) {
    if (rows.get(file.teamId)?.contentHash === file.hash) {
      result.unchanged++;
      continue;
    }
    const read = readFile(file, result);
    if (read) changed.push(read);
  }
  // Superseded memories are indexed last, so the memory that replaced each has its local id.
  changed.sort((a, b) => Number(a.ours.supersededBy !== null) - Number(b.ours.supersededBy !== null));
  // A transaction per batch of files (one fsync each, not one per file: a first index of 500
  // files took 2.6 s file by file); each file is a savepoint in it, so a refused one undoes
  // only its own statements.
  for (let start = 0; start < changed.length; start += FILES_PER_TRANSACTION) {
    store.write(() => {
      for (const read of changed.slice(start, start + FILES_PER_TRANSACTION)) {
        try {
          const change = store.write((tx, now) => indexFile(store, tx, now, read));
          result[changeList(change)].push(read.file.teamId);
        } catch (error) {
          // A memory the store refuses (too long, say): reported like a bad file, the others indexed.
          if (!EngramError.is(error)) throw error;
          result.errors.push({
            file: read.file.relative,
            message: `${read.file.relative}: ${error.message}`,
          });
        }
      }
    });
  }
  const present = new Set(files.map((f) => f.teamId));
  for (const row of rows.values()) {
    if (row.contentHash === null || present.has(row.teamId)) continue;
    store.write((tx, now) => retire(store, tx, now, row));
    result.retired.push(row.teamId);
  }
  return result;
}

function changeList(change: Exclude<TeamChange, 'retired'>): 'added' | 'edited' | 'conflicts' | 'resolved' {
  return change === 'conflict' ? 'conflicts' : change;
}

function readFile(file: TeamFileOnDisk, result: TeamSyncResult): ReadFile | undefined {
  try {
    const sides = conflictSides(file.text);
    const ours = parseTeamFile(sides?.ours ?? file.text, file.relative);
    const theirs = sides ? parseTeamFile(sides.theirs, `${file.relative} (theirs)`) : undefined;
    for (const entry of [ours, ...(theirs ? [theirs] : [])])
      if (entry.id !== file.teamId)
        throw new EngramError(
          'INVALID_INPUT',
          `${file.relative}: id "${entry.id}" differs from the file name`,
        );
    return { file, ours, theirs };
  } catch (error) {
    if (!EngramError.is(error)) throw error;
    result.errors.push({ file: file.relative, message: error.message });
    return undefined;
  }
}

function indexFile(
  store: MemoryStore,
  tx: SqlWriter,
  now: number,
  { file, ours, theirs }: ReadFile,
): Exclude<TeamChange, 'retired'> {
  const row = teamRow(tx, file.teamId);
  // The clone that shared a memory holds it under the team id itself: adopt it, never copy it.
  const known = row?.memoryId ?? (existingMemory(tx, file.teamId) ? file.teamId : undefined);
  const conflicted = theirs !== undefined;
  const oursNote = conflicted ? `${CONFLICT_NOTE}${file.relative}: our side (resolve the file)` : null;
  const memoryId = upsert(store, tx, now, known, ours, conflicted, oursNote);
  let theirsId: string | null = null;
  if (theirs) {
    const note = `${CONFLICT_NOTE}${file.relative}: their side (resolve the file)`;
    theirsId = upsert(store, tx, now, row?.theirsId ?? undefined, theirs, true, note);
  } else if (row?.theirsId) {
    const reason = `git conflict in ${file.relative} resolved`;
    const other = currentMemory(tx, row.theirsId);
    if (other.status !== 'archived')
      setStatus(store, tx, now, other, { status: 'archived', statusReason: reason }, 'archived');
  }
  const change = conflicted ? 'conflict' : row?.theirsId ? 'resolved' : known ? 'edited' : 'added';
  saveTeamRow(tx, {
    teamId: file.teamId,
    memoryId,
    theirsId,
    contentHash: file.hash,
    fileVersion: ours.version,
    changedAt: now,
    changedBy: 'files',
    lastChange: change,
  });
  return change;
}

function existingMemory(tx: SqlWriter, id: string): boolean {
  return tx.value('SELECT 1 FROM memories WHERE id = ? LIMIT 1', [id]) !== undefined;
}

/** The local memory of one side of a file: created on first sight, else brought to the file's state. */
function upsert(
  store: MemoryStore,
  tx: SqlWriter,
  now: number,
  memoryId: string | undefined,
  entry: TeamEntry,
  conflicted: boolean,
  note: string | null,
): string {
  const tags = localTags(entry, conflicted);
  const supersededBy =
    entry.supersededBy === null ? null : (teamRow(tx, entry.supersededBy)?.memoryId ?? null);
  const id = memoryId ?? createFromEntry(store, entry, tags, note);
  alignMemory(store, tx, now, id, entry, tags, supersededBy);
  const memory = currentMemory(tx, id);
  // Only the conflict note is the index's to change: a memory's own context never came from a file.
  const noted = note !== null || memory.context?.startsWith(CONFLICT_NOTE) === true;
  if (memoryId !== undefined && noted && memory.context !== note && memory.status === 'active')
    store.edit(id, { context: note }, TEAM_ACTOR);
  return id;
}

/** The file left the branch (deleted, or a branch without it checked out): its memories leave recall. */
function retire(store: MemoryStore, tx: SqlWriter, now: number, row: TeamRow): void {
  const reason = `team file of ${row.teamId} is not on this branch`;
  for (const id of [row.memoryId, row.theirsId]) {
    if (id === null || !existingMemory(tx, id)) continue;
    const memory = currentMemory(tx, id);
    if (memory.status !== 'archived' && memory.status !== 'forgotten')
      setStatus(store, tx, now, memory, { status: 'archived', statusReason: reason }, 'archived');
  }
  saveTeamRow(tx, {
    ...row,
    theirsId: null,
    contentHash: null,
    changedAt: now,
    changedBy: 'files',
    lastChange: 'retired',
  });
}
