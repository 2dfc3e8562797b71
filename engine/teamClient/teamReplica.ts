import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Engram } from '../engram';
import type { ReplicaChanges, StorePosition } from '../api/replicaMethods';
import { sendToTeam } from './teamConnection';
import type { TeamTarget } from './teamConnection';

/**
 * The local replica of the team scope: a copy of the memories the team server showed this client,
 * in a store of its own (`team-replica/memory.db` beside the client's database), so that reads
 * the server does not answer are answered from what the team knew at the last sync rather than
 * from the clone's own memories alone. Answers from it are marked stale (staleNotice).
 *
 * A sync asks the server for what changed after the replica's position in the server's store
 * (`replicaChanges`, engine/api/replicaMethods.ts: every version of each memory with a new row or
 * a ledger event since, with its counters and annotations), a page at a time, and replaces those
 * memories in the replica (`replicaApply`), one transaction per page, which records the page's
 * end as the replica's position in the same transaction: a sync killed between two pages leaves a
 * replica that stands where its content is, and the next one goes on from there. Nothing changed:
 * one small answer. The first copy, or one of a store that went back (replaced, restored), is
 * written into a new store that then replaces the old one whole (rename): a reader never sees half
 * of it, and a sync that fails leaves the last copy and its position in place.
 */
export interface ReplicaState {
  /** The server the replica copies; another URL's replica is never answered from. */
  url: string;
  /**
   * Whose view it copies (the token's SHA-256, as the server keeps it): the server copies a user's
   * private memories to that user only, so another token's replica is never answered from.
   */
  token: string;
  /**
   * Where the copy stands in the server's store: the next sync asks for what came after. The
   * store's own (replicaPosition) is the truth; this one lags it by at most the page being applied.
   */
  position: StorePosition;
  /** Which whole copy this is: a host holding the store open reopens it when another replaced it. */
  copy?: string;
  /** When the copy was last checked against the server (ms since epoch). */
  syncedAt: number;
}

/** Opens an engine on a database file (the host's options: wasm, workers, logger). */
export type OpenReplica = (dbPath: string) => Promise<Engram>;

/**
 * How a sync reaches the replica's store: `open` opens one on a file (a whole copy's new store,
 * and without `held` the replica's own, for the sync only); `held`: a long-lived host's open store
 * (HeldReplica), released before a whole copy replaces its file.
 */
export interface ReplicaStores {
  open: OpenReplica;
  held?: { engram(): Promise<Engram>; release(): Promise<void> };
}

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
      typeof state.position?.versions === 'number' &&
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

/**
 * - `current`: nothing changed on the server since the last sync;
 * - `updated`: the changed memories were replaced in the replica (`memories`: how many);
 * - `copied`: the replica was written whole (the first copy, or the server's store went back).
 */
export type SyncOutcome =
  | { kind: 'current' | 'updated' | 'copied'; state: ReplicaState; memories: number }
  | { kind: 'failed'; reason: string };

const NOTHING: StorePosition = { versions: 0, events: 0 };

/**
 * Brings the replica up to the server's store (see the file comment); never throws. `page`: memory
 * rows (and events) per request.
 */
export async function syncReplica(
  target: TeamTarget,
  directory: string,
  stores: OpenReplica | ReplicaStores,
  now: number,
  page = PAGE,
): Promise<SyncOutcome> {
  const { open, held } = typeof stores === 'function' ? { open: stores, held: undefined } : stores;
  const changesAfter = (after: StorePosition) =>
    ask<ReplicaChanges>(target, 'replicaChanges', { after, limit: page });
  try {
    const known = readReplica(directory, target);
    // The store's own position is the truth: replica.json lags it by the page a killed sync was
    // applying, or, once another process wrote a whole copy over a store held open, is ahead of
    // the new file. A held store is asked at once; an opened one once it is open (below).
    const heldStore = known && held ? await held.engram() : undefined;
    const stored = heldStore ? await heldStore.call('replicaPosition', {}) : null;
    const from = stored ?? known?.position ?? NOTHING;
    const first = await changesAfter(from);
    const stateAt = (position: StorePosition, copy = known?.copy, syncedAt = now): ReplicaState => ({
      url: target.url,
      token: tokenHash(target),
      position,
      ...(copy === undefined ? {} : { copy }),
      syncedAt,
    });
    if (known && !behind(first.head, from)) {
      if (first.memories === 0 && !first.more) {
        const state = stateAt(first.position);
        writeState(directory, state);
        return { kind: 'current', state, memories: 0 };
      }
      const update = async (engram: Engram): Promise<SyncOutcome> => {
        const own = heldStore ? stored : await engram.call('replicaPosition', {});
        const start = own && differs(own, from) && !behind(first.head, own) ? await changesAfter(own) : first;
        // Until the last page, the copy is as of the last whole sync: syncedAt stays.
        const { position, memories } = await applyPages(changesAfter, start, engram, (at) =>
          writeState(directory, stateAt(at, known.copy, known.syncedAt)),
        );
        const state = stateAt(position);
        writeState(directory, state);
        return { kind: 'updated', state, memories };
      };
      if (heldStore) return await update(heldStore);
      const engram = await open(replicaDatabase(directory));
      try {
        return await update(engram);
      } finally {
        await engram.close();
      }
    }
    const whole = known ? await changesAfter(NOTHING) : first;
    return await replaceReplica(directory, open, held, async (engram) => {
      const { position, memories } = await applyPages(changesAfter, whole, engram);
      return { state: stateAt(position, randomUUID()), memories };
    });
  } catch (error) {
    return { kind: 'failed', reason: error instanceof Error ? error.message : String(error) };
  }
}

/** The server's store is behind the copy: it was replaced or restored since, so the copy starts over. */
function behind(head: StorePosition, copy: StorePosition): boolean {
  return head.versions < copy.versions || head.events < copy.events;
}

function differs(a: StorePosition, b: StorePosition): boolean {
  return a.versions !== b.versions || a.events !== b.events;
}

/**
 * Applies `first` and the pages after it to the replica, in order, one transaction each with the
 * position it ends at (a memory changed again between two pages comes whole in the later one);
 * `applied` hears each position once its page is in. Where the last page ends.
 */
async function applyPages(
  changesAfter: (after: StorePosition) => Promise<ReplicaChanges>,
  first: ReplicaChanges,
  replica: Engram,
  applied?: (position: StorePosition) => void,
): Promise<{ position: StorePosition; memories: number }> {
  // A memory whose rows span two pages (or that changed between them) is counted once.
  const memories = new Set<string>();
  let page = first;
  for (;;) {
    const { text, position } = page;
    const removed = page.removed ?? [];
    if (page.memories > 0 || page.more) {
      const { replaced } = await replica.call('replicaApply', { text, removed, position });
      for (const id of [...replaced, ...removed]) memories.add(id);
      applied?.(position);
    }
    if (!page.more) return { position, memories: memories.size };
    page = await changesAfter(position);
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

/**
 * Writes a whole copy into a new store beside the old one, then renames it into place (a held
 * store of the old one is released first: its files go).
 */
async function replaceReplica(
  directory: string,
  open: OpenReplica,
  held: ReplicaStores['held'],
  copy: (engram: Engram) => Promise<{ state: ReplicaState; memories: number }>,
): Promise<SyncOutcome> {
  removeLeftovers(directory);
  const fresh = `${directory}.new-${process.pid}-${randomUUID().slice(0, 8)}`;
  const old = `${directory}.old-${process.pid}-${randomUUID().slice(0, 8)}`;
  mkdirSync(fresh, { recursive: true });
  try {
    const engram = await open(replicaDatabase(fresh));
    let copied: { state: ReplicaState; memories: number };
    try {
      copied = await copy(engram);
    } finally {
      await engram.close();
    }
    writeState(fresh, copied.state);
    await held?.release();
    if (existsSync(directory)) renameSync(directory, old);
    renameSync(fresh, directory);
    return { kind: 'copied', ...copied };
  } finally {
    rmSync(fresh, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
}

/** Copies a killed process left beside the replica (`.new-PID-...`, `.old-PID-...` of a dead PID). */
function removeLeftovers(directory: string): void {
  const base = path.basename(directory);
  let names: string[];
  try {
    names = readdirSync(path.dirname(directory));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = name.startsWith(`${base}.`) ? /^[^.]*\.(?:new|old)-(\d+)-/.exec(name)?.[1] : undefined;
    if (pid !== undefined && !alive(Number(pid)))
      rmSync(path.join(path.dirname(directory), name), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function writeState(directory: string, state: ReplicaState): void {
  const file = path.join(directory, STATE_FILE);
  writeFileSync(`${file}.tmp`, JSON.stringify(state));
  renameSync(`${file}.tmp`, file);
}
