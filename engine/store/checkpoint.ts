import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { EngramError } from '../errors';

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

/** How to start the worker: dist/checkpointWorker.js beside the bundle, or the .ts source under tsx. */
export interface CheckpointWorkerScript {
  file: string;
  execArgv?: string[];
}

export function defaultCheckpointWorkerScript(): CheckpointWorkerScript {
  if (__filename.endsWith('.ts'))
    return { file: path.join(__dirname, 'checkpointWorker.ts'), execArgv: ['--require', 'tsx/cjs'] };
  return { file: path.join(__dirname, 'checkpointWorker.js'), execArgv: [] };
}

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
export function runCheckpoint(
  script: CheckpointWorkerScript,
  job: CheckpointJob,
): Promise<Extract<CheckpointReply, { ok: true }>> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(script.file, {
      execArgv: script.execArgv ?? [],
      resourceLimits: { maxYoungGenerationSizeMb: CHECKPOINT_YOUNG_GENERATION_MB },
    });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
      void worker.terminate();
    };
    worker.once('message', (reply: CheckpointReply) =>
      settle(() =>
        reply.ok ? resolve(reply) : reject(new EngramError('STORE', `checkpoint failed: ${reply.error}`)),
      ),
    );
    worker.once('error', (error) => settle(() => reject(error)));
    worker.once('exit', (code) =>
      settle(() => reject(new EngramError('STORE', `checkpoint worker exited with code ${code}`))),
    );
    worker.postMessage(job);
  });
}
