import { EngramError } from '../errors';
import type { Logger } from '../host';
import { WorkerChannel } from '../process/workerKit';
import type { WorkerScript } from '../process/workerKit';
import { DurableDatabase } from '../store/durableDatabase';
import type { EngineDatabase } from '../store/engineDatabase';
import type { ConsolidationCluster } from './consolidation';
import { isPlanReply } from './consolidationPlanProtocol';
import type { PlanJob, PlanReply } from './consolidationPlanProtocol';

/**
 * Plans off the host's thread, on the database as it is at the call (the copy is taken before the
 * call returns); undefined when this database is planned on the thread instead (small, or not a
 * durable file store). Resolves to undefined when the worker failed (logged): consolidationRun.ts
 * then plans on the thread.
 */
export type ConsolidationPlanner = (now: number) => Promise<ConsolidationCluster[] | undefined> | undefined;

/**
 * The planner of a durable store whose host checkpoints in a worker (DurableDatabase.openCopy).
 * `partClusters`: clusters per reply (PlanJob).
 */
export function workerPlanner(
  db: EngineDatabase,
  script: WorkerScript,
  sqlWasmPath: string,
  logger: Logger,
  partClusters?: number,
): ConsolidationPlanner {
  return (now) => {
    const copy = db instanceof DurableDatabase ? db.openCopy() : undefined;
    if (!copy) return undefined;
    const worker = WorkerChannel.start<PlanJob, PlanReply>(script, {
      name: 'consolidation plan worker',
      isReply: isPlanReply,
      onOutputLine: (line) => logger.warn(`consolidation plan worker: ${line}`),
    });
    return new Promise<ConsolidationCluster[]>((resolve, reject) => {
      const clusters: ConsolidationCluster[] = [];
      worker.onReply((reply) => {
        if (!reply.ok) return reject(new EngramError('STORE', reply.error));
        clusters.push(...reply.clusters);
        if (reply.done) resolve(clusters);
      });
      worker.onEnd((reason) => reject(new EngramError('UNAVAILABLE', reason)));
      worker.post({ sqlWasmPath, source: copy.source, now, partClusters });
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
