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
import type { ConsolidationCluster } from './consolidation';
import { PLAN_PART_CLUSTERS } from './consolidationPlanProtocol';
import type { PlanJob, PlanReply } from './consolidationPlanProtocol';

async function plan(job: PlanJob): Promise<void> {
  const started = performance.now();
  const db = loadDatabaseCopy(await loadSqlJs(job.sqlWasmPath), job.source);
  let clusters: ConsolidationCluster[];
  try {
    clusters = planConsolidation(new StatementCache(db), job.now);
  } finally {
    db.close();
  }
  const millis = performance.now() - started;
  const size = Math.max(1, job.partClusters ?? PLAN_PART_CLUSTERS);
  for (let at = 0; at === 0 || at < clusters.length; at += size) {
    const part = clusters.slice(at, at + size);
    const done = at + size >= clusters.length;
    parentPort?.postMessage({ ok: true, clusters: part, done, millis } satisfies PlanReply);
  }
}

parentPort?.once('message', (job: PlanJob) => {
  plan(job).catch((error: unknown) =>
    parentPort?.postMessage({
      ok: false,
      error: error instanceof Error ? error.message : String(error),
    } satisfies PlanReply),
  );
});
