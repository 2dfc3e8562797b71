import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boostCeiling, boostsFor } from '../../engine/retrieval/boosts';
import type { FusedCandidate } from '../../engine/retrieval/fusion';
import { rankPool } from '../../engine/retrieval/rankPool';
import { KINDS, LAYERS } from '../../engine/memory/types';
import { INTENTS } from '../../engine/retrieval/queryAnalysis';
import { seededRandom } from '../support/seededRandom';

interface Row {
  boost: number;
  dropped?: boolean;
}

/** A pool of `size` candidates with falling fused scores, and each one's boost in [lo, hi]. */
function poolOf(size: number, seed: number, lo = 0.97, hi = 1.2) {
  const random = seededRandom(seed);
  const pool: FusedCandidate[] = [];
  const rows = new Map<string, Row>();
  for (let i = 0; i < size; i++) {
    const memoryId = `m${String(i).padStart(5, '0')}`;
    pool.push({ memoryId, fused: 1 / (61 + i), channels: {} });
    rows.set(memoryId, { boost: lo + (hi - lo) * random(), dropped: random() < 0.1 });
  }
  return { pool, rows };
}

/** The top k by boosted score and the ids read, with or without stopping early. */
function ranked(pool: FusedCandidate[], rows: Map<string, Row>, k: number, everything: boolean) {
  const read: string[] = [];
  const hits: Array<{ id: string; score: number }> = [];
  rankPool(
    pool,
    k,
    1.2,
    (ids) => {
      read.push(...ids);
      return new Map(ids.map((id) => [id, rows.get(id)!]));
    },
    (candidate, row) => {
      if (!row || row.dropped) return undefined;
      const score = candidate.fused * row.boost;
      hits.push({ id: candidate.memoryId, score });
      return score;
    },
    everything,
  );
  hits.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  return { top: hits.slice(0, k).map((h) => h.id), read: read.length };
}

describe('rankPool', () => {
  it('stops reading where no later candidate can reach the top k, with the same top k', () => {
    for (const seed of [1, 2, 3])
      for (const k of [40, 300, 1000]) {
        const { pool, rows } = poolOf(3 * k, seed);
        const whole = ranked(pool, rows, k, true);
        const early = ranked(pool, rows, k, false);
        assert.equal(whole.read, 3 * k);
        assert.deepEqual(early.top, whole.top, `seed ${seed}, k ${k}`);
        assert.ok(early.read < (k >= 300 ? 1.5 * k : 3 * k), `read ${early.read} of ${3 * k} at k ${k}`);
      }
  });

  it('reads on while filters leave fewer than k, and the whole of a small pool at once', () => {
    const { pool, rows } = poolOf(600, 4);
    for (const row of [...rows.values()].slice(0, 300)) row.dropped = true;
    const early = ranked(pool, rows, 200, false);
    assert.deepEqual(early.top, ranked(pool, rows, 200, true).top);
    assert.equal(early.top.length, 200);
    let reads = 0;
    rankPool(
      pool.slice(0, 30),
      10,
      1.2,
      (ids) => {
        reads++;
        return new Map(ids.map((id) => [id, rows.get(id)!]));
      },
      () => 1,
    );
    assert.equal(reads, 1);
  });
});

describe('boostCeiling', () => {
  it('is the largest total any memory gets, for every intent, with and without a session', () => {
    const now = Date.parse('2026-06-01T00:00:00Z');
    for (const intent of INTENTS)
      for (const session of [undefined, 's1']) {
        const context = { intent, now, session };
        const ceiling = boostCeiling(context);
        let best = 0;
        for (const layer of LAYERS)
          for (const kind of KINDS)
            for (const importance of [0, 0.5, 1])
              for (const pinned of [false, true])
                for (const age of [0, 1e9, -1e9]) {
                  const memory = {
                    layer,
                    kind,
                    importance,
                    pinned,
                    critical: false,
                    trust: 'agent' as const,
                  };
                  const total = boostsFor({ ...memory, validFrom: now - age, session: 's1' }, context).total;
                  assert.ok(total <= ceiling, `${intent} ${layer} ${kind}: ${total} > ${ceiling}`);
                  best = Math.max(best, total);
                }
        assert.equal(best, ceiling);
      }
  });
});
