/**
 * The exclusive lock that makes one process the only writer of a database: `${dbPath}.lock`,
 * created with O_EXCL and holding the owner's pid, start time, hostname and IPC endpoint.
 *
 * A lock whose owner is dead is stale and may be taken over. Taking over is the dangerous part: two
 * processes that both see the same stale lock must not both replace it, so a takeover runs under a
 * second, short-lived mutex (`${dbPath}.lock.takeover`, a directory, since mkdir is atomic
 * everywhere) and re-checks the lock inside it.
 */
import { randomUUID } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import { EngramError } from '../errors';
import { isProcessAlive, processStartTime } from './processInfo';
import { acquireTakeoverMutex } from './takeoverMutex';

/** What a lock file records about its owner. */
export interface LockOwner {
  pid: number;
  /** Kernel start time of `pid` (Linux), so a reused pid is not mistaken for the owner. */
  startedAt: number | null;
  hostname: string;
  /** Where the owner serves clients. */
  endpoint: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
  /** Random per acquisition: tells "still ours" apart from "someone else's with our pid". */
  token: string;
}

/** What is at the lock path right now. */
export type LockState =
  | { kind: 'absent' }
  | { kind: 'live'; owner: LockOwner }
  /** Created but not written yet (or written by a process that died a moment ago). */
  | { kind: 'starting' }
  | { kind: 'stale'; owner: LockOwner | null; reason: string; fingerprint: string };

export interface LockTimings {
  /** How old an empty or unparsable lock file must be before it counts as stale. @default 2000 */
  unparsableGraceMs?: number;
  /** How old a takeover mutex must be before it counts as abandoned. @default 10000 */
  staleMutexMs?: number;
}

export interface HeldLock {
  readonly path: string;
  readonly owner: LockOwner;
  /** Whether the lock file still carries our token. */
  isHeld(): boolean;
  /** Removes the lock file if, and only if, it is still ours. Idempotent. */
  release(): void;
}

export type AcquireResult =
  | { acquired: true; lock: HeldLock }
  /** `holder` is null while the holder is still writing its lock file. */
  | { acquired: false; holder: LockOwner | null };

const DEFAULT_UNPARSABLE_GRACE_MS = 2_000;
const DEFAULT_STALE_MUTEX_MS = 10_000;
/** Each round either wins, finds a live holder, or saw the lock change under it; a few suffice. */
const MAX_ROUNDS = 20;

export function lockPathFor(dbPath: string): string {
  return `${dbPath}.lock`;
}

/**
 * Tries once to become the lock holder: creates the lock, or takes over a stale one. Does not wait
 * for a live holder to go away; callers retry.
 */
export async function acquireLock(
  dbPath: string,
  endpoint: string,
  timings: LockTimings = {},
): Promise<AcquireResult> {
  const lockPath = lockPathFor(dbPath);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const owner = newOwner(endpoint);
    const created = createExclusive(lockPath, owner);
    if (created) return { acquired: true, lock: created };

    const state = inspectLock(lockPath, timings);
    if (state.kind === 'live') return { acquired: false, holder: state.owner };
    if (state.kind === 'starting') return { acquired: false, holder: null };
    if (state.kind === 'absent') continue;

    const taken = await takeOver(lockPath, state.fingerprint, owner, timings);
    if (taken === 'busy') return { acquired: false, holder: null };
    if (taken !== 'changed') return { acquired: true, lock: taken };
  }
  // The lock kept changing under us: someone else is busy with it. Report it as held.
  return { acquired: false, holder: null };
}

/** Reads and judges the lock file without changing anything. */
export function inspectLock(lockPath: string, timings: LockTimings = {}): LockState {
  const snapshot = readSnapshot(lockPath);
  if (snapshot === null) return { kind: 'absent' };
  const fingerprint = `${snapshot.ino}:${snapshot.text}`;
  const owner = parseOwner(snapshot.text);
  if (owner === null) {
    const grace = timings.unparsableGraceMs ?? DEFAULT_UNPARSABLE_GRACE_MS;
    if (Date.now() - snapshot.mtimeMs < grace) return { kind: 'starting' };
    return { kind: 'stale', owner: null, reason: 'unparsable lock file', fingerprint };
  }
  // A pid from another machine (a shared or network drive) cannot be checked from here: respect it.
  if (owner.hostname !== os.hostname()) return { kind: 'live', owner };
  if (isProcessAlive(owner.pid, owner.startedAt)) return { kind: 'live', owner };
  return { kind: 'stale', owner, reason: `process ${owner.pid} is gone`, fingerprint };
}

function newOwner(endpoint: string): LockOwner {
  return {
    pid: process.pid,
    startedAt: processStartTime(process.pid),
    hostname: os.hostname(),
    endpoint,
    createdAt: Date.now(),
    token: randomUUID(),
  };
}

/**
 * O_EXCL create and write. Returns null when the file already exists. Not fsynced: a lock only
 * matters while its owner lives, and a crash that could lose the file or its text also ends the
 * owner, so whatever is left is stale either way (an empty file after its grace period, a dead pid).
 * Other processes read it from the page cache. The two fsyncs were 1-130 ms of every CLI call.
 */
function createExclusive(lockPath: string, owner: LockOwner): HeldLock | null {
  let fd: number;
  try {
    fd = openSync(lockPath, 'wx', 0o644);
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return null;
    throw storeError(`cannot create lock file ${lockPath}`, error);
  }
  let ino: number;
  try {
    writeFully(fd, JSON.stringify(owner));
    ino = fstatSync(fd).ino;
  } catch (error) {
    closeSync(fd);
    tryUnlink(lockPath);
    throw storeError(`cannot write lock file ${lockPath}`, error);
  }
  closeSync(fd);
  // Had we stalled for longer than the grace period between create and write, another process may
  // have replaced our still-empty file as stale: then the file at the path is no longer ours.
  if (readSnapshot(lockPath)?.ino !== ino) return null;
  return heldLock(lockPath, owner);
}

async function takeOver(
  lockPath: string,
  fingerprint: string,
  owner: LockOwner,
  timings: LockTimings,
): Promise<HeldLock | 'busy' | 'changed'> {
  const mutex = await acquireTakeoverMutex(
    `${lockPath}.takeover`,
    timings.staleMutexMs ?? DEFAULT_STALE_MUTEX_MS,
  );
  // Another process is taking over right now; it will be the holder, or we try again later.
  if (mutex === null) return 'busy';
  try {
    // Re-check under the mutex: another process may have taken over (or the owner released)
    // since we looked. Only the exact file we judged stale may be replaced.
    const now = inspectLock(lockPath, timings);
    if (now.kind !== 'stale' || now.fingerprint !== fingerprint) return 'changed';
    const temp = `${lockPath}.${owner.token}.tmp`;
    try {
      const fd = openSync(temp, 'wx', 0o644);
      try {
        writeFully(fd, JSON.stringify(owner));
      } finally {
        closeSync(fd);
      }
      // rename() replaces the stale file atomically: there is no moment without a lock file.
      renameSync(temp, lockPath);
    } catch (error) {
      tryUnlink(temp);
      // Windows refuses to replace a file another process has open (a reader judging it): retry.
      if (['EPERM', 'EACCES', 'EBUSY'].includes(errnoCode(error) ?? '')) return 'changed';
      throw storeError(`cannot take over lock file ${lockPath}`, error);
    }
    return heldLock(lockPath, owner);
  } finally {
    mutex.release();
  }
}

function heldLock(lockPath: string, owner: LockOwner): HeldLock {
  const isHeld = (): boolean => {
    const snapshot = readSnapshot(lockPath);
    return snapshot !== null && parseOwner(snapshot.text)?.token === owner.token;
  };
  return {
    path: lockPath,
    owner,
    isHeld,
    release() {
      // Nobody takes over a lock whose owner is alive, so between this check and the unlink the
      // file cannot become someone else's.
      if (isHeld()) tryUnlink(lockPath);
    },
  };
}

interface Snapshot {
  ino: number;
  mtimeMs: number;
  text: string;
}

/** Reads stat and content through one descriptor so both describe the same file. */
function readSnapshot(lockPath: string): Snapshot | null {
  let fd: number;
  try {
    fd = openSync(lockPath, 'r');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw storeError(`cannot read lock file ${lockPath}`, error);
  }
  try {
    const stat = fstatSync(fd);
    // A lock file is a few hundred bytes; anything far larger is garbage, not an owner.
    const buffer = Buffer.alloc(Math.min(stat.size, 64 * 1024));
    const length = buffer.length > 0 ? readSync(fd, buffer, 0, buffer.length, 0) : 0;
    return { ino: stat.ino, mtimeMs: stat.mtimeMs, text: buffer.toString('utf8', 0, length) };
  } finally {
    closeSync(fd);
  }
}

function parseOwner(text: string): LockOwner | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.pid !== 'number' || !Number.isSafeInteger(v.pid)) return null;
  if (v.startedAt !== null && typeof v.startedAt !== 'number') return null;
  if (typeof v.hostname !== 'string' || typeof v.endpoint !== 'string') return null;
  return {
    pid: v.pid,
    startedAt: v.startedAt,
    hostname: v.hostname,
    endpoint: v.endpoint,
    createdAt: typeof v.createdAt === 'number' ? v.createdAt : 0,
    token: typeof v.token === 'string' ? v.token : '',
  };
}

function writeFully(fd: number, text: string): void {
  const buffer = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < buffer.length) offset += writeSync(fd, buffer, offset, buffer.length - offset);
}

function tryUnlink(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}

function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function storeError(message: string, cause: unknown): EngramError {
  return new EngramError('STORE', `${message}: ${(cause as Error).message}`, { cause: errnoCode(cause) });
}

/** For diagnostics and tests: the raw owner recorded in a lock file, if it parses. */
export function readLockOwner(lockPath: string): LockOwner | null {
  try {
    return parseOwner(readFileSync(lockPath, 'utf8'));
  } catch {
    return null;
  }
}
