import type { SqlReader } from '../store/sqlAccess';
import { notFound } from '../errors';
import { versionsOf } from '../memory/memoryQueries';
import type { Memory, RememberManyResult, RememberRejection, RememberResult } from '../memory/types';

/**
 * How a write's result is kept for a retried request (see EngineDispatcher.execute). The whole result
 * is kept by default; a method whose results are large keeps a compact record and rebuilds the
 * result from the database when a retry asks. (A batch of 1,000 memories kept ~0.6 MB of JSON,
 * written into the table and the journal once more: a tenth of the cost of the batch.)
 */
export interface ResultRecord<R> {
  record(result: R): unknown;
  rebuild(reader: SqlReader, record: unknown): R;
}

interface RememberRecord extends Omit<RememberResult, 'memory'> {
  id: string;
  version: number;
  counters: Pick<Memory, 'pinned' | 'accessCount' | 'lastAccessedAt' | 'confirmations'>;
}

/**
 * Remember results keep each memory's id, version and counters; a retry reads that version back,
 * so it gets what the first answer said even if the memory was edited since. A rejection is kept
 * whole (it is small and names no memory), so a retry answers it again.
 */
export const REMEMBER_RESULTS: ResultRecord<RememberManyResult[]> = {
  record: (results) => results.map(keptResult),
  rebuild: (reader, record) =>
    (record as Array<RememberRecord | RememberRejection>).map((kept) => rebuiltResult(reader, kept)),
};

/**
 * One remember's result, kept as a batch keeps each of its own: the whole memory went into the
 * table and, escaped once more, into the journal (a single remember's record 3.7 KB, now 3.2 KB),
 * and the write policy parsed and scanned that JSON on every call.
 */
export const REMEMBER_RESULT: ResultRecord<RememberResult> = {
  record: keptResult,
  rebuild: (reader, record) =>
    // A request answered before this record existed kept its whole result.
    typeof record === 'object' && record !== null && 'memory' in record
      ? (record as RememberResult)
      : (rebuiltResult(reader, record as RememberRecord) as RememberResult),
};

// Fields named one by one: object rest/spread of a thousand results showed in write profiles.
function keptResult(result: RememberManyResult): RememberRecord | RememberRejection {
  if (result.outcome === 'rejected') return result;
  const memory = result.memory;
  const kept: RememberRecord = {
    outcome: result.outcome,
    superseded: result.superseded,
    redacted: result.redacted,
    id: memory.id,
    version: memory.version,
    counters: {
      pinned: memory.pinned,
      accessCount: memory.accessCount,
      lastAccessedAt: memory.lastAccessedAt,
      confirmations: memory.confirmations,
    },
  };
  if (result.similarity !== undefined) kept.similarity = result.similarity;
  if (result.surprise !== undefined) kept.surprise = result.surprise;
  if (result.merged !== undefined) kept.merged = result.merged;
  return kept;
}

function rebuiltResult(reader: SqlReader, kept: RememberRecord | RememberRejection): RememberManyResult {
  if (kept.outcome === 'rejected') return kept;
  const { id, version, counters, outcome, ...rest } = kept;
  const written = versionsOf(reader, id).find((v) => v.version === version);
  if (!written) throw notFound(`version ${version} of memory "${id}" is gone`);
  // `memory` second, as the first answer had it: a retry answers the same JSON, key for key.
  return { outcome, memory: { ...written, ...counters }, ...rest };
}
