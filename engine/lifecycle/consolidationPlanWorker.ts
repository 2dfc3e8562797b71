/**
 * Worker thread entry: plans consolidation (consolidation.ts, planConsolidation, unchanged) on a
 * read-only copy of the database built from its snapshot and journal (databaseCopy.ts), so the
 * plan's seconds at 100k memories never block the host's thread. See consolidationPlan.ts.
 */
// First, before anything can print: see captureWorkerOutput.ts.
import '../process/captureWorkerOutput';
import { parentPort } from 'node:worker_threads';
import { loadDatabaseCopy } from '../store/databaseCopy';
import { loadSqlJs } from '../store/sqlite';
import { StatementCache } from '../store/sqlAccess';
import { planConsolidation } from './consolidation';
import type { PlanJob, PlanReply } from './consolidationPlan';

async function plan(job: PlanJob): Promise<PlanReply> {
  const started = performance.now();
  const db = loadDatabaseCopy(await loadSqlJs(job.sqlWasmPath), job.source);
  try {
    const clusters = planConsolidation(new StatementCache(db), job.now);
    return { ok: true, clusters, millis: performance.now() - started };
  } finally {
    db.close();
  }
}

parentPort?.once('message', (job: PlanJob) => {
  plan(job).then(
    (reply) => parentPort?.postMessage(reply),
    (error: unknown) =>
      parentPort?.postMessage({
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      } satisfies PlanReply),
  );
});
