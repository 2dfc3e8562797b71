import { EngramError } from '../errors';
import { WorkerChannel } from '../process/workerKit';
import type { WorkerScript } from '../process/workerKit';

/** What the checkpoint worker does: snapshot at `fromSeq` + journal bytes [from, to) -> temp file. */
export interface CheckpointJob {
  sqlWasmPath: string;
  databasePath: string;
  journalPath: string;
  from: number;
  to: number;
  fromSeq: number;
  toSeq: number;
  tempPath: string;
}

export type CheckpointReply =
  | {
      ok: true;
      bytes: number;
      /** The snapshot's checksum (snapshotFile.ts, snapshotSum). */
      sum: string;
      millis: number;
      /** The worker's V8 heap (committed, MB) when it was done: what its run held at the end. */
      heapMb: number;
    }
  | { ok: false; error: string };

/** How to start the worker (workerScripts.ts). */
export type CheckpointWorkerScript = WorkerScript;

/**
 * The worker's young generation (MB). V8's default (16 MB semi-spaces) let a checkpoint at 10k
 * knowledge-graph entities commit ~50 MB of heap, and the host process kept ~90 MB more RSS after
 * the worker had ended (compat bridge, 256 -> 168 MB with this limit). Replaying
 * journal records makes short-lived garbage only, so small semi-spaces cost a few more scavenges.
 * Only the young generation is capped: an old-generation limit would fail large databases.
 */
export const CHECKPOINT_YOUNG_GENERATION_MB = 4;

/**
 * Runs one checkpoint in a worker thread of its own, which ends with it: checkpoints are minutes
 * apart, and a worker holds a second copy of the database while it works.
 */
export async function runCheckpoint(
  script: CheckpointWorkerScript,
  job: CheckpointJob,
): Promise<Extract<CheckpointReply, { ok: true }>> {
  const worker = WorkerChannel.start<CheckpointJob, CheckpointReply>(script, {
    name: 'checkpoint worker',
    isReply: isCheckpointReply,
    resourceLimits: { maxYoungGenerationSizeMb: CHECKPOINT_YOUNG_GENERATION_MB },
  });
  try {
    const reply = await worker.nextReply(job);
    if (!reply.ok) throw new EngramError('STORE', `checkpoint failed: ${reply.error}`);
    return reply;
  } catch (error) {
    if (EngramError.is(error, 'UNAVAILABLE')) throw new EngramError('STORE', error.message);
    throw error;
  } finally {
    void worker.terminate();
  }
}

function isCheckpointReply(value: unknown): value is CheckpointReply {
  if (typeof value !== 'object' || value === null) return false;
  const reply = value as Record<string, unknown>;
  return reply.ok === true
    ? typeof reply.bytes === 'number' && typeof reply.sum === 'string'
    : reply.ok === false && typeof reply.error === 'string';
}
