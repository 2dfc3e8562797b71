import { EngramError } from '../errors';
import type { Logger } from '../host';
import { WorkerChannel } from '../process/workerKit';
import type { WorkerScript } from '../process/workerKit';
import type { DatabaseCopySource } from '../store/databaseCopy';
import { DurableDatabase } from '../store/durableDatabase';
import type { EngineDatabase } from '../store/engineDatabase';
import type { ConsolidationCluster } from './consolidation';

/** What the plan worker does (consolidationPlanWorker.ts): a copy of the database -> the plan. */
export interface PlanJob {
  sqlWasmPath: string;
  source: DatabaseCopySource;
  now: number;
}

export type PlanReply =
  { ok: true; clusters: ConsolidationCluster[]; millis: number } | { ok: false; error: string };

/**
 * Plans off the host's thread, on the database as it is at the call (the copy is taken before the
 * call returns); undefined when this database is planned on the thread instead (small, or not a
 * durable file store). Resolves to undefined when the worker failed (logged): consolidationRun.ts
 * then plans on the thread.
 */
export type ConsolidationPlanner = (now: number) => Promise<ConsolidationCluster[] | undefined> | undefined;

/** The planner of a durable store whose host checkpoints in a worker (DurableDatabase.openCopy). */
export function workerPlanner(
  db: EngineDatabase,
  script: WorkerScript,
  sqlWasmPath: string,
  logger: Logger,
): ConsolidationPlanner {
  return (now) => {
    const copy = db instanceof DurableDatabase ? db.openCopy() : undefined;
    if (!copy) return undefined;
    const worker = WorkerChannel.start<PlanJob, PlanReply>(script, {
      name: 'consolidation plan worker',
      isReply: isPlanReply,
      onOutputLine: (line) => logger.warn(`consolidation plan worker: ${line}`),
    });
    return worker
      .nextReply({ sqlWasmPath, source: copy.source, now })
      .then((reply) => {
        if (!reply.ok) throw new EngramError('STORE', reply.error);
        return reply.clusters;
      })
      .catch((error: unknown) => {
        logger.warn('consolidation: planning in a worker failed, planning on this thread', {
          error: String(error),
        });
        return undefined;
      })
      .finally(() => {
        copy.close();
        void worker.terminate();
      });
  };
}

function isPlanReply(value: unknown): value is PlanReply {
  if (typeof value !== 'object' || value === null) return false;
  const reply = value as Record<string, unknown>;
  return reply.ok === true
    ? Array.isArray(reply.clusters) && typeof reply.millis === 'number'
    : reply.ok === false && typeof reply.error === 'string';
}
