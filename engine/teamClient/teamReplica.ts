import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Engram } from '../engram';
import { FORMAT, FORMAT_VERSION } from '../exchange/engramJsonl';
import type { Memory } from '../memory/types';
import { MIGRATIONS } from '../memory/schema';
import { sendToTeam } from './teamConnection';
import type { TeamTarget } from './teamConnection';

/**
 * The local replica of the team scope: a copy of the memories the team server showed this client,
 * in a store of its own (`team-replica/memory.db` beside the client's database), so that reads
 * the server does not answer are answered from what the team knew at the last sync rather than
 * from the clone's own memories alone. Answers from it are marked stale (staleNotice).
 *
 * A sync asks the server for `stats` (one cheap read); when its count of memory versions moved
 * since the last sync, the active memories are listed and written into a new store, which then
 * replaces the old one whole (rename): a reader never sees half a sync, and a sync that fails
 * leaves the last one in place. Counters that change without a version (pins, confirmations,
 * access counts) are copied with the next change of a memory.
 */
export interface ReplicaState {
  /** The server the replica copies; another URL's replica is never answered from. */
  url: string;
  /**
   * Whose view it copies (the token's SHA-256, as the server keeps it): the server lists a user's
   * private memories to that user only, so another token's replica is never answered from.
   */
  token: string;
  /**
   * How many memory versions the server's store held when the copy was taken. Every change of a
   * memory (remember, edit, a status change) adds a version; the store's transaction number would
   * also move with every flush of read events, and make each sync a copy.
   */
  versions: number;
  /** When the copy was last checked against the server (ms since epoch). */
  syncedAt: number;
  memories: number;
}

/** Opens an engine on a database file (the host's options: wasm, workers, logger). */
export type OpenReplica = (dbPath: string) => Promise<Engram>;

/** A sync at most this often after an answered read (each costs the server a `stats` call). */
export const REPLICA_SYNC_EVERY_MS = 60_000;

const STATE_FILE = 'replica.json';
const PAGE = 1000;

/** Where the replica of the team scope is kept, beside the client's database. */
export function replicaDirectory(dbPath: string): string {
  return path.join(path.dirname(dbPath), 'team-replica');
}

export function replicaDatabase(directory: string): string {
  return path.join(directory, 'memory.db');
}

/** The replica's state, or undefined when there is none of this server and token (or it cannot be read). */
export function readReplica(directory: string, target: TeamTarget): ReplicaState | undefined {
  try {
    const state = JSON.parse(readFileSync(path.join(directory, STATE_FILE), 'utf8')) as ReplicaState;
    return state.url === target.url &&
      state.token === tokenHash(target) &&
      existsSync(replicaDatabase(directory))
      ? state
      : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a read answered by the server should be followed by a sync now. */
export function replicaSyncDue(directory: string, target: TeamTarget, now: number): boolean {
  const state = readReplica(directory, target);
  return state === undefined || now - state.syncedAt >= REPLICA_SYNC_EVERY_MS;
}

export type SyncOutcome =
  { kind: 'current' | 'copied'; state: ReplicaState } | { kind: 'failed'; reason: string };

/** Brings the replica up to the server's store (see the file comment); never throws. */
export async function syncReplica(
  target: TeamTarget,
  directory: string,
  open: OpenReplica,
  now: number,
): Promise<SyncOutcome> {
  try {
    const { versions } = await ask<{ versions: number }>(target, 'stats', {});
    const known = readReplica(directory, target);
    if (known && known.versions === versions) {
      const state = { ...known, syncedAt: now };
      writeState(directory, state);
      return { kind: 'current', state };
    }
    const memories = await listAll(target);
    const state: ReplicaState = {
      url: target.url,
      token: tokenHash(target),
      versions,
      syncedAt: now,
      memories: memories.length,
    };
    await replaceReplica(directory, memories, state, open);
    return { kind: 'copied', state };
  } catch (error) {
    return { kind: 'failed', reason: error instanceof Error ? error.message : String(error) };
  }
}

/** The line that marks an answer from the replica: it may be stale. */
export function staleNotice(state: ReplicaState, reason: string): string {
  return `${state.url} did not answer (${reason}); answering from ${replicaCopy(state)}: it may be stale`;
}

/** The replica and when it was taken, for messages. */
export function replicaCopy(state: ReplicaState): string {
  return `the local replica of the team's memories as of ${new Date(state.syncedAt).toISOString()}`;
}

function tokenHash(target: TeamTarget): string {
  return createHash('sha256').update(target.token).digest('hex');
}

async function ask<T>(target: TeamTarget, method: string, params: unknown): Promise<T> {
  const outcome = await sendToTeam(target, randomUUID(), method, params);
  if (outcome.kind === 'answered') return outcome.result as T;
  throw new Error(outcome.kind === 'refused' ? outcome.message : outcome.reason);
}

async function listAll(target: TeamTarget): Promise<Memory[]> {
  const all: Memory[] = [];
  for (let offset: number | null = 0; offset !== null;) {
    const page: { items: Memory[]; next: number | null } = await ask(target, 'list', {
      limit: PAGE,
      offset,
    });
    all.push(...page.items);
    offset = page.next;
  }
  return all;
}

/** Writes the copy into a new store beside the old one, then renames it into place. */
async function replaceReplica(
  directory: string,
  memories: Memory[],
  state: ReplicaState,
  open: OpenReplica,
): Promise<void> {
  const fresh = `${directory}.new-${process.pid}-${randomUUID().slice(0, 8)}`;
  const old = `${directory}.old-${process.pid}-${randomUUID().slice(0, 8)}`;
  mkdirSync(fresh, { recursive: true });
  try {
    const engram = await open(replicaDatabase(fresh));
    try {
      if (memories.length > 0) await engram.call('import', { text: importText(memories) });
    } finally {
      await engram.close();
    }
    writeState(fresh, state);
    if (existsSync(directory)) renameSync(directory, old);
    renameSync(fresh, directory);
  } finally {
    rmSync(fresh, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
}

function writeState(directory: string, state: ReplicaState): void {
  const file = path.join(directory, STATE_FILE);
  writeFileSync(`${file}.tmp`, JSON.stringify(state));
  renameSync(`${file}.tmp`, file);
}

/** The memories as an Engram export (engramJsonl.ts): their current versions and counters. */
function importText(memories: Memory[]): string {
  const lines = [JSON.stringify({ _format: FORMAT, version: FORMAT_VERSION, schema: MIGRATIONS.length })];
  for (const m of memories) {
    lines.push(
      JSON.stringify({
        _table: 'memories',
        id: m.id,
        version: m.version,
        layer: m.layer,
        kind: m.kind,
        content: m.content,
        context: m.context,
        tags: JSON.stringify(m.tags),
        importance: m.importance,
        trust: m.trust,
        critical: m.critical ? 1 : 0,
        scope: m.scope,
        agent: m.agent,
        session: m.session,
        conflict_key: m.conflictKey,
        content_hash: m.contentHash,
        source: m.source === null ? null : JSON.stringify(m.source),
        status: m.status,
        status_reason: m.statusReason,
        superseded_by: m.supersededBy,
        valid_from: m.validFrom,
        valid_to: m.validTo,
        recorded_at: m.recordedAt,
        superseded_at: m.supersededAt,
        change: m.change,
      }),
      JSON.stringify({
        _table: 'memory_state',
        id: m.id,
        pinned: m.pinned ? 1 : 0,
        access_count: m.accessCount,
        last_accessed_at: m.lastAccessedAt,
        confirmations: m.confirmations,
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}
