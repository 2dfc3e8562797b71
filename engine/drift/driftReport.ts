import type { ClaimEvidence, ClaimKind, DriftStatus, Verdict } from './claimTypes';

export interface ClaimReport {
  kind: ClaimKind;
  subject: string;
  span: [number, number];
  negated: boolean;
  file?: string;
  /** Where the text names the file a symbol is said to be in. */
  fileSpan?: [number, number];
  line?: number;
  version?: string;
  /** Other mentions of the same false statement in the memory (one finding, shown once). */
  repeats?: Array<[number, number]>;
  verdict: Verdict;
  evidence: ClaimEvidence;
}

/** What to do about a drifted memory: rewrite moved paths, invalidate it, or have someone look. */
export type Repair = 'rewrite' | 'invalidate' | 'review';

export interface MemoryDrift {
  id: string;
  status: DriftStatus;
  /** The first 200 characters of the content. */
  excerpt: string;
  /** Set when the check dated the memory's end: the time of the commit that made it false. */
  validTo: number | null;
  suggestion: Repair | null;
  claims: ClaimReport[];
}

export interface HistoryReport {
  git: boolean;
  head: string | null;
  shallow: boolean;
  note: string;
}

export interface DriftReport {
  root: string;
  history: HistoryReport;
  /** Memories and claims verified by this check; `extracted` memories had their claims (re)extracted. */
  checked: { memories: number; claims: number; extracted: number; incremental: boolean };
  verdicts: Record<Verdict, number>;
  statuses: Record<DriftStatus, number>;
  /** 0-100: the share of memories with checkable claims that drifted (moved, stale or dead). */
  score: number;
  /** The drifted memories (every checked memory with `all`). */
  memories: MemoryDrift[];
  millis: number;
  /** With fix or autoFix: what the repair did (or would do, with dryRun). */
  fix?: FixReport;
}

export interface FixAction {
  id: string;
  action: Repair;
  reason: string;
  /** For rewrite: the new content. */
  content?: string;
  /** For invalidate: the valid-to time given. */
  validTo?: number;
  /**
   * For a review of a human's memory: the change a fix would make once the user accepts it (its
   * text, for a rewrite, is `content`).
   */
  proposed?: 'rewrite' | 'invalidate';
}

export interface FixReport {
  dryRun: boolean;
  actions: FixAction[];
}

/**
 * The drift a scan found (method `scan`): the memories whose claims name a path the scan found
 * added, changed, deleted or renamed, and those not checked since they were written, checked again
 * as `drift` with `paths` checks them.
 */
export interface ScanDrift {
  /** Every memory checked, drifted or not: a host's earlier verdicts on them no longer hold. */
  checked: string[];
  /** The drifted ones among them (moved, stale or dead). */
  memories: MemoryDrift[];
  /** Set when the check failed (the scan itself succeeded): why, in one line. */
  error?: string;
}
