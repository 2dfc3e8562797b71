import type { DatabaseCopySource } from '../store/databaseCopy';
import type { ConsolidationCluster } from './consolidation';

/** What the plan worker does (consolidationPlanWorker.ts): a copy of the database -> the plan. */
export interface PlanJob {
  sqlWasmPath: string;
  source: DatabaseCopySource;
  now: number;
  /** Clusters per reply. @default PLAN_PART_CLUSTERS */
  partClusters?: number;
}

/**
 * The plan comes in parts (PLAN_PART_CLUSTERS), the last one `done`: the host reads each message
 * in one go, and 20k clusters in one message took 150-230 ms of its thread to read (100k memories).
 */
export type PlanReply =
  | { ok: true; clusters: ConsolidationCluster[]; done: boolean; millis: number }
  | { ok: false; error: string };

export const PLAN_PART_CLUSTERS = 500;

export function isPlanReply(value: unknown): value is PlanReply {
  if (typeof value !== 'object' || value === null) return false;
  const reply = value as Record<string, unknown>;
  return reply.ok === true
    ? Array.isArray(reply.clusters) && typeof reply.done === 'boolean' && typeof reply.millis === 'number'
    : reply.ok === false && typeof reply.error === 'string';
}
