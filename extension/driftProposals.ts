import type { DriftReport as CheckReport } from '../engine/index';
import { readDriftReport } from './driftReport';
import type { DriftEvidence } from './driftReport';

/**
 * One change a drift fix would make to one memory, for the user to accept or skip. The engine's
 * dry run (`drift {fix, dryRun}`) plans a rewrite or an invalidation; for a human's memory it only
 * proposes it (a `review` carrying `proposed`), and does it once the memory is named in `ids`.
 */
export interface DriftProposal {
  memoryId: string;
  change: 'rewrite' | 'invalidate';
  /** The memory's text after a rewrite. */
  proposedContent?: string;
  /** Why, without the engine's "proposed ... (a human's memory ...)" and "drift:" prefixes. */
  reason: string;
  /** Whether the engine would not apply it without consent (a human wrote the memory). */
  needsConsent: boolean;
  /** The start of the memory's content, as the check reported it. */
  excerpt: string;
  evidence: DriftEvidence;
}

const PROPOSED = /^proposed (rewrite|invalidate)\b[^:]*:\s*/;

function plainReason(reason: string): string {
  return reason.replace(PROPOSED, '').replace(/^drift(, please review)?:\s*/, '');
}

/** Reads a dry run's fix actions into one proposal per memory (plain reviews propose nothing). */
export function readDriftProposals(result: CheckReport): DriftProposal[] {
  // The checked memories give each proposal its excerpt and the commit that made it drift.
  const findings = new Map(readDriftReport(result, 0).findings.map((f) => [f.memoryId, f]));
  const proposals = new Map<string, DriftProposal>();
  for (const action of result.fix?.actions ?? []) {
    const change = action.action === 'review' ? action.proposed : action.action;
    if (change === undefined || proposals.has(action.id)) continue;
    if (change === 'rewrite' && action.content === undefined) continue;
    const finding = findings.get(action.id);
    proposals.set(action.id, {
      memoryId: action.id,
      change,
      ...(action.content !== undefined && change === 'rewrite' ? { proposedContent: action.content } : {}),
      reason: plainReason(action.reason),
      needsConsent: action.action === 'review',
      excerpt: finding?.content ?? '',
      evidence: finding?.evidence ?? {},
    });
  }
  return [...proposals.values()];
}
