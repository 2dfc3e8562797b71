import type { ClaimReport, DriftReport as CheckReport, MemoryDrift, ScanDrift } from '../engine/index';

/** What the views say about the commit that made a memory drift. */
export interface DriftEvidence {
  commit?: string;
  date?: string;
  message?: string;
  /** Where a moved path or symbol went. */
  target?: string;
}

/** One drifted memory as the Drift view, the status bar and chat show it. */
export interface DriftFinding {
  memoryId: string;
  /** The start of the memory's content. */
  content: string;
  /** moved, stale or dead. */
  status: string;
  reason: string;
  evidence: DriftEvidence;
  /** The repair the checker suggests: rewrite, invalidate or review. */
  repair?: string;
}

export interface DriftReport {
  /** 0-100 for the workspace (0 = nothing stale); undefined after an incremental check. */
  score: number | undefined;
  findings: DriftFinding[];
  /** Every memory the run looked at (with `all`), drifted or not. */
  checked: string[];
  checkedAt: number;
}

/** Statuses that say nothing is wrong (or nothing could be checked). */
const HOLDS = new Set(['none', 'ok', 'unverifiable']);

/** The claims that failed: the engine reports every claim of a drifted memory, verdict per claim. */
function failedClaims(memory: MemoryDrift): ClaimReport[] {
  return memory.claims.filter((c) => c.verdict !== 'ok' && c.verdict !== 'unverifiable');
}

function evidenceOf(claim: ClaimReport | undefined): DriftEvidence {
  const evidence: DriftEvidence = {};
  const commit = claim?.evidence.commit;
  if (commit) {
    evidence.commit = commit.hash;
    evidence.date = commit.date;
    evidence.message = commit.message;
  }
  if (claim?.evidence.target) evidence.target = claim.evidence.target;
  return evidence;
}

/** A memory of the check as the views show it; undefined when it holds. */
export function findingOf(memory: MemoryDrift): DriftFinding | undefined {
  if (HOLDS.has(memory.status)) return undefined;
  // The claim with a commit explains best; any failed claim explains better than the status alone.
  const failed = failedClaims(memory);
  const claim = failed.find((c) => c.evidence.commit) ?? failed[0];
  return {
    memoryId: memory.id,
    content: memory.excerpt,
    status: memory.status,
    reason: claim ? `${claim.subject} ${claim.evidence.reason}`.trim() : memory.status,
    evidence: evidenceOf(claim),
    ...(memory.suggestion ? { repair: memory.suggestion } : {}),
  };
}

/** The engine's check as the views show it. */
export function readDriftReport(result: CheckReport, now: number): DriftReport {
  return {
    score: result.score,
    findings: result.memories.map(findingOf).filter((f): f is DriftFinding => f !== undefined),
    checked: result.memories.map((m) => m.id),
    checkedAt: now,
  };
}

/** A scan's drift (the memories naming what it changed) as the views show it: a partial report. */
export function readScanDrift(drift: ScanDrift, now: number): DriftReport {
  return {
    score: undefined,
    findings: drift.memories.map(findingOf).filter((f): f is DriftFinding => f !== undefined),
    checked: drift.checked,
    checkedAt: now,
  };
}

export function describeEvidence(e: DriftEvidence): string {
  const parts: string[] = [];
  if (e.target) parts.push(`moved to ${e.target}`);
  if (e.commit) parts.push(`commit ${e.commit.slice(0, 10)}`);
  if (e.date) parts.push(e.date.slice(0, 10));
  if (e.message) parts.push(`"${e.message}"`);
  return parts.join(', ');
}
