import { close, fdatasync, open, read, rm, write } from 'node:fs';
import { promisify } from 'node:util';
import { EngramError } from '../errors';

/**
 * The part of a journal compaction (Journal.compact) that runs in libuv's thread pool: the kept
 * records are copied to the new file and synced there, while this thread goes on appending to the
 * old file. Only what was appended meanwhile is copied on the thread, with the rename.
 */

/**
 * The steps of a compaction, in order, each reported once it is done (DurableDatabaseOptions'
 * onCompactionStep: a crash test kills the process there). `copying`: a part of the kept records
 * is in the new file (reported after each part); `copied`: all the records appended before the
 * last part started are in the new file, synced, and the thread's step begins; `synced`: the rest
 * is in the new file too and synced, the old file still in place; `renamed`: the new file is the
 * journal.
 */
export type CompactionStep = 'copying' | 'copied' | 'synced' | 'renamed';

/** The most a compaction copies on the thread: past it, another part is copied in the pool first. */
export const THREAD_COPY_BYTES = 256 * 1024;
/** Parts copied in the pool before the rest is taken on the thread, however much it is. */
export const MAX_POOL_ROUNDS = 8;
/** Bytes read and written per call in the pool (one buffer, reused). */
const CHUNK_BYTES = 1024 * 1024;

const readAsync = promisify(read);
const writeAsync = promisify(write);
const openAsync = promisify(open);
const closeAsync = promisify(close);
const rmAsync = promisify(rm);
export const fdatasyncAsync = promisify(fdatasync);

/** The error a compaction stops with when its journal was closed under it. */
export function closedDuringCompaction(): EngramError {
  return new EngramError('STORE', 'the journal was closed during its compaction');
}

/** Creates (or empties) the file a compaction writes, read-write: it becomes the journal. */
export async function openCompactionTarget(filePath: string, header: Buffer): Promise<number> {
  const fd = await openAsync(filePath, 'w+', 0o600);
  try {
    await writeAllAsync(fd, header, 0);
  } catch (error) {
    await closeAsync(fd);
    throw error;
  }
  return fd;
}

/** Closes and removes a compaction's file that will not become the journal. */
export async function dropCompactionTarget(fd: number, filePath: string): Promise<void> {
  await closeAsync(fd).catch(() => undefined);
  await rmAsync(filePath, { force: true }).catch(() => undefined);
}

/**
 * Copies bytes [from, to) of `source` to `target` at `at`, a chunk at a time, calling `onChunk`
 * after each. `stillValid` is asked after every wait: false (the journal was closed, its
 * descriptor may be reused) stops the copy with an error.
 */
export async function copyRangeInPool(
  source: number,
  target: number,
  range: { from: number; to: number; at: number },
  stillValid: () => boolean,
  onChunk: () => void,
): Promise<void> {
  const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, range.to - range.from));
  for (let offset = range.from; offset < range.to;) {
    if (!stillValid()) throw closedDuringCompaction();
    const length = Math.min(buffer.length, range.to - offset);
    const { bytesRead } = await readAsync(source, buffer, 0, length, offset);
    if (!stillValid()) throw closedDuringCompaction();
    if (bytesRead === 0) throw new Error('unexpected end of journal');
    await writeAllAsync(target, buffer.subarray(0, bytesRead), range.at + (offset - range.from));
    offset += bytesRead;
    onChunk();
  }
}

async function writeAllAsync(fd: number, bytes: Buffer, position: number): Promise<void> {
  for (let done = 0; done < bytes.length;) {
    const { bytesWritten } = await writeAsync(fd, bytes, done, bytes.length - done, position + done);
    done += bytesWritten;
  }
}
