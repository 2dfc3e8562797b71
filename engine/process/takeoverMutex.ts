/**
 * The mutex that serialises takeovers of one stale lock: a directory, because mkdir either creates
 * it or fails with EEXIST atomically on every platform and file system. It is held for a few file
 * operations only, so one that is old was left by a process that died mid-takeover and is broken.
 */
import { mkdirSync, renameSync, rmdirSync, statSync } from 'node:fs';
import { randomUUID } from 'node:crypto';

export interface TakeoverMutex {
  release(): void;
}

/** How long to wait for a live holder before giving up this round (callers retry). */
const MAX_WAIT_MS = 2_000;

export async function acquireTakeoverMutex(dir: string, staleMs: number): Promise<TakeoverMutex | null> {
  const deadline = Date.now() + MAX_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(dir);
      return held(dir, statSync(dir).ino);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const stat = statOrNull(dir);
    if (stat !== null && Date.now() - stat.mtimeMs > staleMs) {
      breakStale(dir, staleMs);
      continue;
    }
    if (Date.now() > deadline) return null;
    await sleep(5 + Math.random() * 15);
  }
}

function held(dir: string, ino: number): TakeoverMutex {
  return {
    release() {
      // Only remove the directory we created: if ours was broken as stale (we stalled for longer
      // than staleMs), the one there now belongs to someone else.
      if (statOrNull(dir)?.ino === ino) {
        try {
          rmdirSync(dir);
        } catch {
          // Gone already.
        }
      }
    },
  };
}

/**
 * Moves the abandoned mutex aside and removes it. Renaming first, then judging what was moved,
 * means two processes breaking it at once cannot both remove a fresh mutex that a third process
 * created in between: the one that moved a fresh mutex puts it back.
 */
function breakStale(dir: string, staleMs: number): void {
  const aside = `${dir}.stale-${randomUUID()}`;
  try {
    renameSync(dir, aside);
  } catch {
    return; // Someone else moved it first.
  }
  const moved = statOrNull(aside);
  // rename() would silently replace an empty directory, so only put it back into an empty slot.
  if (moved !== null && Date.now() - moved.mtimeMs <= staleMs && statOrNull(dir) === null) {
    try {
      renameSync(aside, dir);
    } catch {
      // Nothing better to do: its holder will find its mutex gone and leave the new one alone.
    }
  }
  try {
    rmdirSync(aside);
  } catch {
    // Put back above, or already removed.
  }
}

function statOrNull(file: string): { ino: number; mtimeMs: number } | null {
  try {
    return statSync(file);
  } catch {
    return null;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
