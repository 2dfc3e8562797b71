import type { CodeChannelHit, MemoryReads } from '../../retrieval/recallSources';
import { codeSearchIndexOf } from './codeSearchIndex';
import { searchCode } from './codeSearch';

/** How many files, at most, a recall asks the code channel for a memory each. */
const FILES = 50;

/**
 * The code channel of recall for questions about code: the files the code search ranks (the
 * words of the code, not only its compressed memories), each brought in as its module memory
 * (`code:file:<path>`), the memory an agent reads first about a file. Files without one (no
 * symbols or imports) are left out. Empty while the code index is.
 */
export function codeChannel(
  store: MemoryReads,
  root: string | undefined,
  query: string,
  depth: number,
): CodeChannelHit[] {
  return store.read((r) => {
    if ((r.value<number>('SELECT count(*) FROM code_files') ?? 0) === 0) return [];
    const files = searchCode(codeSearchIndexOf(store, r, root), query, Math.min(depth, FILES));
    if (files.length === 0) return [];
    const keys = files.map((f) => `code:file:${f.path}`);
    const ids = new Map(
      r
        .all<{ id: string; key: string }>(
          `SELECT id, conflict_key AS key FROM memories
            WHERE superseded_at IS NULL AND status = 'active' AND conflict_key IN (${keys.map(() => '?').join(', ')})`,
          keys,
        )
        .map((row) => [row.key, row.id]),
    );
    return files.flatMap((f) => {
      const memoryId = ids.get(`code:file:${f.path}`);
      if (!memoryId) return [];
      return [
        {
          memoryId,
          score: f.score,
          path: f.path,
          role: f.role,
          fields: definedFields(f.fields),
          prior: f.prior,
          symbols: f.symbols.map((s) => `${s.container ? `${s.container}.` : ''}${s.name}:${s.line}`),
        },
      ];
    });
  });
}

/** The fields that matched, as a plain record (the trace is JSON). */
function definedFields(fields: Partial<Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [field, value] of Object.entries(fields))
    if (value !== undefined) out[field] = Number(value.toPrecision(4));
  return out;
}
