import type { SqlReader, SqlWriter } from '../store/sqlAccess';
import type {
  ClaimCheck,
  ClaimEvidence,
  ClaimKind,
  DriftStatus,
  ExtractedClaim,
  StoredClaim,
  Verdict,
} from './claimTypes';

/** A current, active memory whose claims are missing or were extracted from other content. */
export interface PendingMemory {
  id: string;
  content: string;
  contentHash: string;
  validFrom: number;
  source: string | null;
}

/**
 * The extraction rules claims were taken with, stored beside the content hash they were taken
 * from: when the rules change, every memory is extracted again on the next check instead of
 * keeping the claims the old rules read into it.
 */
export const EXTRACTION_RULES = 'rules-13';
const EXTRACTED_FROM = `m.content_hash || ':${EXTRACTION_RULES}'`;

/** Codebase memories are derived from the code index and kept equal to it: they never drift. */
const CHECKED_MEMORIES = "m.superseded_at IS NULL AND m.status = 'active' AND m.layer <> 'codebase'";

export function pendingExtraction(reader: SqlReader): PendingMemory[] {
  return reader.all<PendingMemory>(
    `SELECT m.id, m.content, m.content_hash AS contentHash, m.valid_from AS validFrom, m.source
       FROM memories m LEFT JOIN drift_memories d ON d.memory_id = m.id
      WHERE ${CHECKED_MEMORIES} AND (d.memory_id IS NULL OR d.content_hash <> ${EXTRACTED_FROM})`,
  );
}

/** Rows per multi-row statement: 11 values a claim row, far below SQLite's 999 parameters. */
const ROWS_PER_STATEMENT = 100;

/**
 * Replaces the claims of memories with those of their current content, with the verdicts of the
 * check that extracted them (`checks`); their drift state starts over. Multi-row statements: a
 * first check of 10,000 memories is a few hundred statements, not tens of thousands.
 */
export function storeClaims(
  tx: SqlWriter,
  extracted: ReadonlyArray<{ memory: PendingMemory; claims: readonly ExtractedClaim[] }>,
  now: number,
  checks: ReadonlyMap<ExtractedClaim, ClaimCheck> = new Map(),
): void {
  const rows: Array<Array<string | number | null>> = [];
  for (const { memory, claims } of extracted) {
    for (const claim of claims) {
      const { kind, subject, file, negated, span } = claim;
      const {
        fileSpan,
        line,
        version,
        parameters,
        argumentKinds,
        method,
        signature,
        signatureSpan,
        value,
        valueSpan,
        isDefault,
        confidence,
        linked,
        usedAs,
        requiredCallable,
        moduleCalled,
        published,
        option,
      } = claim;
      const detail = {
        fileSpan,
        line,
        version,
        parameters,
        argumentKinds,
        method,
        signature,
        signatureSpan,
        value,
        valueSpan,
        isDefault,
        confidence,
        linked,
        usedAs,
        requiredCallable,
        moduleCalled,
        published,
        option,
      };
      const check = checks.get(claim);
      rows.push([
        memory.id,
        kind,
        subject,
        file ?? null,
        negated ? 1 : 0,
        span[0],
        span[1],
        JSON.stringify(detail),
        check?.verdict ?? null,
        check ? JSON.stringify(check.evidence) : null,
        check ? now : null,
      ]);
    }
  }
  const ids = extracted.map(({ memory }) => memory.id);
  inChunks(ids, (chunk) =>
    tx.run(`DELETE FROM drift_claims WHERE memory_id IN (${marks(chunk.length)})`, chunk),
  );
  inChunks(rows, (chunk) =>
    tx.run(
      `INSERT INTO drift_claims (memory_id, kind, subject, file, negated, span_start, span_end, detail, verdict, evidence, checked_at) VALUES ${chunk
        .map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
        .join(', ')}`,
      chunk.flat(),
    ),
  );
  inChunks(extracted, (chunk) =>
    tx.run(
      `INSERT INTO drift_memories (memory_id, content_hash, extracted_at) VALUES ${chunk.map(() => '(?, ?, ?)').join(', ')}
       ON CONFLICT (memory_id) DO UPDATE SET content_hash = excluded.content_hash, extracted_at = excluded.extracted_at,
         status = NULL, checked_at = NULL, flagged_hash = NULL`,
      chunk.flatMap(({ memory }) => [memory.id, `${memory.contentHash}:${EXTRACTION_RULES}`, now]),
    ),
  );
}

function inChunks<T>(items: readonly T[], apply: (chunk: T[]) => void): void {
  for (let i = 0; i < items.length; i += ROWS_PER_STATEMENT) apply(items.slice(i, i + ROWS_PER_STATEMENT));
}

function marks(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

interface ClaimRow {
  id: number;
  memoryId: string;
  kind: ClaimKind;
  subject: string;
  file: string | null;
  negated: number;
  spanStart: number;
  spanEnd: number;
  detail: string | null;
  verdict: Verdict | null;
  evidence: string | null;
  checkedAt: number | null;
  validFrom: number;
  source: string | null;
}

/** A stored claim with what its memory adds to a check: valid-from time and source file. */
export interface ClaimForCheck extends StoredClaim {
  memoryValidFrom: number;
  sourceFile?: string;
}

/** Claims of the current, active memories (all of them, or of `memoryIds`, read by its index). */
export function claimsForCheck(reader: SqlReader, memoryIds?: readonly string[]): ClaimForCheck[] {
  const select = `SELECT c.id, c.memory_id AS memoryId, c.kind, c.subject, c.file, c.negated, c.span_start AS spanStart,
            c.span_end AS spanEnd, c.detail, c.verdict, c.evidence, c.checked_at AS checkedAt,
            m.valid_from AS validFrom, m.source
       FROM drift_claims c JOIN memories m ON m.id = c.memory_id AND m.superseded_at IS NULL
      WHERE m.status = 'active' AND m.layer <> 'codebase'`;
  if (memoryIds === undefined)
    return reader.all<ClaimRow>(`${select} ORDER BY c.memory_id, c.span_start`).map(toClaim);
  const rows: ClaimRow[] = [];
  inChunks([...new Set(memoryIds)].sort(), (chunk) =>
    rows.push(
      ...reader.all<ClaimRow>(
        `${select} AND c.memory_id IN (${marks(chunk.length)}) ORDER BY c.memory_id, c.span_start`,
        chunk,
      ),
    ),
  );
  return rows.map(toClaim);
}

/**
 * The claims just extracted from a pending memory, ready to check before they are stored (id 0
 * until then).
 */
export function newClaimsForCheck(memory: PendingMemory, claims: readonly ExtractedClaim[]): ClaimForCheck[] {
  const sourceFile = memory.source ? (JSON.parse(memory.source) as { file?: unknown }).file : undefined;
  return claims.map((claim) => {
    const checked: ClaimForCheck = {
      ...claim,
      id: 0,
      memoryId: memory.id,
      verdict: null,
      evidence: null,
      checkedAt: null,
      memoryValidFrom: memory.validFrom,
    };
    if (typeof sourceFile === 'string') checked.sourceFile = sourceFile;
    return checked;
  });
}

function toClaim(row: ClaimRow): ClaimForCheck {
  const detail = (row.detail ? JSON.parse(row.detail) : {}) as Partial<ExtractedClaim>;
  const claim: ClaimForCheck = {
    id: row.id,
    memoryId: row.memoryId,
    kind: row.kind,
    subject: row.subject,
    negated: row.negated === 1,
    span: [row.spanStart, row.spanEnd],
    verdict: row.verdict,
    evidence: row.evidence ? (JSON.parse(row.evidence) as ClaimEvidence) : null,
    checkedAt: row.checkedAt,
    memoryValidFrom: row.validFrom,
  };
  if (row.file !== null) claim.file = row.file;
  if (detail.fileSpan) claim.fileSpan = detail.fileSpan;
  if (detail.line !== undefined) claim.line = detail.line;
  if (detail.version !== undefined) claim.version = detail.version;
  if (detail.parameters !== undefined) claim.parameters = detail.parameters;
  if (detail.argumentKinds) claim.argumentKinds = detail.argumentKinds;
  if (detail.method !== undefined) claim.method = detail.method;
  if (detail.signature !== undefined) claim.signature = detail.signature;
  if (detail.signatureSpan) claim.signatureSpan = detail.signatureSpan;
  if (detail.value !== undefined) claim.value = detail.value;
  if (detail.valueSpan) claim.valueSpan = detail.valueSpan;
  if (detail.isDefault === true) claim.isDefault = true;
  if (detail.confidence === 'low') claim.confidence = 'low';
  if (detail.linked === true) claim.linked = true;
  if (detail.usedAs === 'package') claim.usedAs = 'package';
  if (detail.requiredCallable === true) claim.requiredCallable = true;
  if (detail.moduleCalled === true) claim.moduleCalled = true;
  if (detail.published === true) claim.published = true;
  if (detail.option === true) claim.option = true;
  const sourceFile = row.source ? (JSON.parse(row.source) as { file?: unknown }).file : undefined;
  if (typeof sourceFile === 'string') claim.sourceFile = sourceFile;
  return claim;
}

export function saveVerdict(tx: SqlWriter, claimId: number, check: ClaimCheck, now: number): void {
  tx.run('UPDATE drift_claims SET verdict = ?, evidence = ?, checked_at = ? WHERE id = ?', [
    check.verdict,
    JSON.stringify(check.evidence),
    now,
    claimId,
  ]);
}

export interface MemoryDriftState {
  status: DriftStatus | null;
  appliedValidTo: number | null;
  flaggedHash: string | null;
}

export function driftStateOf(reader: SqlReader, memoryId: string): MemoryDriftState | undefined {
  return reader.get<MemoryDriftState>(
    'SELECT status, applied_valid_to AS appliedValidTo, flagged_hash AS flaggedHash FROM drift_memories WHERE memory_id = ?',
    [memoryId],
  );
}

/** What recording a check needs of a current memory, read for many memories in a few queries. */
export interface CheckedMemory extends MemoryDriftState {
  id: string;
  content: string;
  validFrom: number;
  validTo: number | null;
}

export function checkedMemories(reader: SqlReader, ids: readonly string[]): Map<string, CheckedMemory> {
  const found = new Map<string, CheckedMemory>();
  inChunks(ids, (chunk) => {
    for (const row of reader.all<CheckedMemory>(
      `SELECT m.id, m.content, m.valid_from AS validFrom, m.valid_to AS validTo, d.status,
              d.applied_valid_to AS appliedValidTo, d.flagged_hash AS flaggedHash
         FROM memories m LEFT JOIN drift_memories d ON d.memory_id = m.id
        WHERE m.superseded_at IS NULL AND m.id IN (${marks(chunk.length)})`,
      chunk,
    ))
      found.set(row.id, row);
  });
  return found;
}

export function saveMemoryStatus(tx: SqlWriter, memoryId: string, status: DriftStatus, now: number): void {
  tx.run('UPDATE drift_memories SET status = ?, checked_at = ? WHERE memory_id = ?', [status, now, memoryId]);
}

export function markValidToApplied(tx: SqlWriter, memoryId: string, validTo: number): void {
  tx.run('UPDATE drift_memories SET applied_valid_to = ? WHERE memory_id = ?', [validTo, memoryId]);
}

export function markFlagged(tx: SqlWriter, memoryId: string, contentHash: string): void {
  tx.run('UPDATE drift_memories SET flagged_hash = ? WHERE memory_id = ?', [contentHash, memoryId]);
}
