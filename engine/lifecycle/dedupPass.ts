import { EngramError } from '../errors';
import { distinguishingDifference } from '../memory/distinguishingTokens';
import type { MemoryStore } from '../memory/memoryStore';
import { currentMemory } from '../memory/memoryQueries';
import { CURRENT_SELECT, reviseVersion, toMemory } from '../memory/rows';
import type { MemoryRow } from '../memory/rows';
import type { Memory } from '../memory/types';
import type { MemoryVectors } from '../vectors/memoryVectors';
import { NOT_A_CARD } from './storedPeerCards';

/** Layers whose memories are merged when they restate each other (working notes are scratch). */
export const DEDUP_LAYERS = ['semantic', 'procedural', 'episodic'];
/** Neighbours looked at per memory: restatements are the nearest ones when they exist. */
const NEIGHBOURS = 6;

export interface DedupPair {
  /** The memory kept: more important, else more confirmed, else older. */
  keep: string;
  /** The restatement merged into it (superseded by it). */
  merge: string;
  similarity: number;
  keepExcerpt: string;
  mergeExcerpt: string;
}

/**
 * Near-duplicate pairs among current memories (issue 21, section 3.5): cosine similarity at least
 * `threshold` between their stored vectors, same layer, same visibility, and no number, name,
 * path or identifier that differs (the write path's merge rule, measured in `npm run bench:dedup`).
 * Each memory is in one pair at most per run. Needs the embedding model's vectors.
 */
export async function planDedup(
  store: MemoryStore,
  vectors: MemoryVectors | undefined,
  threshold: number,
): Promise<DedupPair[]> {
  if (!vectors)
    throw new EngramError(
      'INVALID_INPUT',
      'dedup needs an embedding model (set --embedding or engram.embedding)',
    );
  await vectors.whenIndexed();
  const rows = store.read((r) =>
    r.all<MemoryRow & { vector: Uint8Array }>(
      `${CURRENT_SELECT.replace(' FROM memories m', ', v.vector FROM memories m')}
       JOIN memory_docs d ON d.memory_id = m.id
       JOIN memory_vectors v ON v.doc = d.doc AND v.model = ? AND v.content_hash = m.content_hash
       WHERE m.superseded_at IS NULL AND m.status = 'active' AND ${NOT_A_CARD}
         AND m.layer IN (${DEDUP_LAYERS.map(() => '?').join(', ')}) ORDER BY m.valid_from, m.id`,
      [vectors.modelId, ...DEDUP_LAYERS],
    ),
  );
  const byId = new Map<string, Memory>(rows.map((row) => [row.id, toMemory(row)]));
  const paired = new Set<string>();
  const pairs: DedupPair[] = [];
  for (const row of rows) {
    if (paired.has(row.id)) continue;
    const a = byId.get(row.id) as Memory;
    const vector = new Float32Array(
      row.vector.buffer.slice(row.vector.byteOffset, row.vector.byteOffset + row.vector.byteLength),
    );
    for (const hit of await vectors.nearest(vector, NEIGHBOURS)) {
      if (hit.score < threshold) break;
      const b = byId.get(hit.memoryId);
      if (!b || b.id === a.id || paired.has(b.id) || !sameShelf(a, b)) continue;
      if (distinguishingDifference(a.content, b.content) !== undefined) continue;
      const [keep, merge] = survivorFirst(a, b);
      pairs.push({
        keep: keep.id,
        merge: merge.id,
        similarity: Math.round(hit.score * 1000) / 1000,
        keepExcerpt: keep.content.slice(0, 120),
        mergeExcerpt: merge.content.slice(0, 120),
      });
      paired.add(a.id).add(b.id);
      break;
    }
  }
  return pairs;
}

/**
 * Merges each pair: the kept memory gets the union of tags, the higher importance, and the other's
 * confirmations and recalls (a new version, change 'merged'); the other is superseded by it and
 * stays in history with the reason. One transaction.
 */
export function applyDedup(store: MemoryStore, pairs: readonly DedupPair[]): number {
  return store.write((tx, now) => {
    let merged = 0;
    for (const pair of pairs) {
      const keep = currentMemory(tx, pair.keep);
      const other = currentMemory(tx, pair.merge);
      if (keep.status !== 'active' || other.status !== 'active') continue;
      const tags = [...new Set([...keep.tags, ...other.tags])];
      reviseVersion(
        tx,
        keep,
        { tags, importance: Math.max(keep.importance, other.importance) },
        'merged',
        now,
      );
      tx.run(
        'UPDATE memory_state SET confirmations = confirmations + ?, access_count = access_count + ? WHERE id = ?',
        [other.confirmations, other.accessCount, keep.id],
      );
      reviseVersion(
        tx,
        other,
        { status: 'superseded', statusReason: `restates ${keep.id}`, supersededBy: keep.id },
        'superseded',
        now,
      );
      store.ledger.append(tx, now, {
        type: 'dedup',
        memoryId: keep.id,
        agent: 'engram-lifecycle',
        data: { merged: other.id, similarity: pair.similarity },
      });
      merged++;
    }
    return merged;
  });
}

function sameShelf(a: Memory, b: Memory): boolean {
  return a.layer === b.layer && a.scope === b.scope && (a.scope === 'shared' || a.agent === b.agent);
}

function survivorFirst(a: Memory, b: Memory): [Memory, Memory] {
  const score = (m: Memory) => [m.importance, m.confirmations, -m.validFrom];
  const [sa, sb] = [score(a), score(b)];
  for (let i = 0; i < sa.length; i++) if (sa[i] !== sb[i]) return sa[i]! > sb[i]! ? [a, b] : [b, a];
  return [a, b];
}
