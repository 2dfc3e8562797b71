import { readDriftReport } from './driftReport';
import type { DriftEvidence } from './driftReport';

/**
 * One change a drift fix would make to one memory, for the user to accept or skip. The engine's
 * dry run (`drift {fix, dryRun}`) plans a rewrite or an invalidation; for a human's memory it only
 * proposes it (a `review` whose reason starts "proposed rewrite" / "proposed invalidate"), and
 * does it once the memory is named in `ids`.
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

type Loose = Record<string, unknown>;
const asObject = (v: unknown): Loose => (typeof v === 'object' && v !== null ? (v as Loose) : {});

const PROPOSED = /^proposed (rewrite|invalidate)\b[^:]*:\s*/;

function plainReason(reason: string): string {
  return reason.replace(PROPOSED, '').replace(/^drift(, please review)?:\s*/, '');
}

/** Reads a dry run's fix actions into one proposal per memory (plain reviews propose nothing). */
export function readDriftProposals(result: unknown): DriftProposal[] {
  const root = asObject(result);
  const actions = asObject(root['fix'])['actions'];
  if (!Array.isArray(actions)) return [];
  // The checked memories give each proposal its excerpt and the commit that made it drift.
  const findings = new Map(
    readDriftReport({ ...root, fix: undefined }, 0).findings.map((f) => [f.memoryId, f]),
  );
  const proposals = new Map<string, DriftProposal>();
  for (const value of actions) {
    const action = asObject(value);
    const memoryId = typeof action['id'] === 'string' ? action['id'] : undefined;
    const reason = typeof action['reason'] === 'string' ? action['reason'] : '';
    const kind = action['action'] === 'review' ? PROPOSED.exec(reason)?.[1] : action['action'];
    if (!memoryId || (kind !== 'rewrite' && kind !== 'invalidate') || proposals.has(memoryId)) continue;
    const content = typeof action['content'] === 'string' ? action['content'] : undefined;
    if (kind === 'rewrite' && content === undefined) continue;
    const finding = findings.get(memoryId);
    proposals.set(memoryId, {
      memoryId,
      change: kind,
      ...(content !== undefined && kind === 'rewrite' ? { proposedContent: content } : {}),
      reason: plainReason(reason),
      needsConsent: action['action'] === 'review',
      excerpt: finding?.content ?? '',
      evidence: finding?.evidence ?? {},
    });
  }
  return [...proposals.values()];
}
