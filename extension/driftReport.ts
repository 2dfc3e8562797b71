/**
 * The drift checker arrives in its own issue; until its result types are in the engine, the
 * extension reads its reports through this tolerant shape, and says "not available" without it.
 */
export interface DriftEvidence {
  commit?: string;
  date?: string;
  message?: string;
  /** Where a moved path or symbol went. */
  target?: string;
}

export interface DriftFinding {
  memoryId: string;
  content: string;
  /** stale, moved, review, ... as the checker says. */
  status: string;
  reason: string;
  evidence: DriftEvidence;
  /** The memory's text after the suggested repair, when the repair rewrites it. */
  proposedContent?: string;
  /** The suggested repair: rewrite, invalidate or review. */
  repair?: string;
}

export interface DriftReport {
  /** 0-100 for the workspace (0 = nothing stale), when the checker gives one. */
  score: number | undefined;
  findings: DriftFinding[];
  /** Every memory the run looked at (with `all`), drifted or not. */
  checked: string[];
  checkedAt: number;
}

/** The engine's drift method: `drift {fix?, dryRun?, paths?, all?}` (engine/api/driftMethods.ts). */
export const DRIFT_METHOD = 'drift';

type Loose = Record<string, unknown>;
const asObject = (v: unknown): Loose => (typeof v === 'object' && v !== null ? (v as Loose) : {});
const asText = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
const firstText = (o: Loose, keys: string[]): string | undefined => {
  for (const k of keys) {
    const t = asText(o[k]);
    if (t !== undefined && t !== '') return t;
  }
  return undefined;
};

/** The claims that failed (the engine reports every claim of a drifted memory, verdict per claim). */
function failedClaims(entry: Loose): Loose[] {
  const claims = Array.isArray(entry['claims']) ? (entry['claims'] as unknown[]).map(asObject) : [];
  return claims.filter((c) => c['verdict'] !== 'ok' && c['verdict'] !== 'unverifiable');
}

function evidenceOf(entry: Loose): DriftEvidence {
  const claim = failedClaims(entry).find((c) => c['evidence']);
  const raw = asObject(entry['evidence'] ?? claim?.['evidence']);
  const commitObject = asObject(raw['commit']);
  const evidence: DriftEvidence = {};
  const commit = firstText(commitObject, ['hash', 'sha']) ?? firstText(raw, ['commit', 'sha', 'hash']);
  const date = firstText(commitObject, ['date']) ?? firstText(raw, ['date', 'authorDate', 'at', 'time']);
  const message = firstText(commitObject, ['message']) ?? firstText(raw, ['message', 'subject']);
  const target = firstText(raw, ['target', 'renamedTo', 'movedTo', 'to']);
  if (commit) evidence.commit = commit;
  if (date) evidence.date = /^\d+$/.test(date) ? new Date(Number(date)).toISOString() : date;
  if (message) evidence.message = message;
  if (target) evidence.target = target;
  return evidence;
}

function findingOf(value: unknown): DriftFinding | undefined {
  const entry = asObject(value);
  const memory = asObject(entry['memory']);
  const memoryId = firstText(entry, ['memoryId', 'id']) ?? firstText(memory, ['id']);
  if (!memoryId) return undefined;
  const status = firstText(entry, ['status', 'verdict', 'driftStatus', 'action']) ?? 'stale';
  if (['ok', 'none', 'unverifiable', 'fresh', 'current'].includes(status)) return undefined;
  const repair = asObject(entry['repair'] ?? entry['fix']);
  const claim = failedClaims(entry)[0];
  const claimReason = claim
    ? `${firstText(claim, ['subject']) ?? ''} ${firstText(asObject(claim['evidence']), ['reason']) ?? ''}`.trim()
    : undefined;
  const finding: DriftFinding = {
    memoryId,
    content:
      (entry['action'] === undefined
        ? firstText(entry, ['excerpt', 'content'])
        : firstText(entry, ['excerpt'])) ??
      firstText(memory, ['content']) ??
      '',
    status,
    reason: firstText(entry, ['reason', 'explanation', 'summary']) ?? claimReason ?? status,
    evidence: evidenceOf(entry),
  };
  // A fix action carries the rewritten text in `content`; a report entry its excerpt.
  const proposed =
    firstText(entry, ['proposedContent', 'newContent', 'rewritten']) ??
    firstText(repair, ['content', 'newContent']) ??
    (entry['action'] === 'rewrite' ? firstText(entry, ['content']) : undefined);
  if (proposed) finding.proposedContent = proposed;
  const repairKind =
    firstText(entry, ['action', 'suggestion']) ?? firstText(repair, ['kind', 'action', 'type']);
  if (repairKind) finding.repair = repairKind;
  return finding;
}

/** Reads whatever the checker returned into a report; unknown fields are ignored. */
export function readDriftReport(result: unknown, now: number): DriftReport {
  const root = asObject(result);
  // A fix run reports its actions under `fix`; a check reports the drifted memories.
  const fix = asObject(root['fix']);
  if (Array.isArray(fix['actions']))
    return readDriftReport({ ...root, fix: undefined, memories: fix['actions'] }, now);
  const list = ['memories', 'stale', 'findings', 'results', 'items', 'actions', 'changes']
    .map((k) => root[k])
    .find(Array.isArray) as unknown[] | undefined;
  const entries = Array.isArray(result) ? result : (list ?? []);
  const scoreValue = root['score'] ?? root['driftScore'];
  return {
    score: typeof scoreValue === 'number' ? scoreValue : undefined,
    findings: entries.map(findingOf).filter((f): f is DriftFinding => f !== undefined),
    checked: entries
      .map((e) => firstText(asObject(e), ['id', 'memoryId']))
      .filter((id): id is string => id !== undefined),
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
