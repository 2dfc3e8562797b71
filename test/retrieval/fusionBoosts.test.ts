import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boostsFor, recencyFactor } from '../../engine/retrieval/boosts';
import { reciprocalRankFusion } from '../../engine/retrieval/fusion';
import { asksForAdvice, classifyIntent } from '../../engine/retrieval/queryAnalysis';
import type { Memory } from '../../engine/memory/types';
import { memoryFixture } from '../support/memoryFixture';

const DAY = 86_400_000;
const NOW = Date.parse('2026-06-01T00:00:00Z');

function memory(overrides: Partial<Memory> = {}): Memory {
  return memoryFixture({ validFrom: NOW, recordedAt: NOW, confirmations: 1, ...overrides });
}

describe('weighted reciprocal rank fusion', () => {
  it('adds w / (60 + rank) per channel', () => {
    const fused = reciprocalRankFusion([
      {
        name: 'lexical',
        weight: 1,
        ranked: [
          { memoryId: 'a', score: 9 },
          { memoryId: 'b', score: 5 },
        ],
      },
      { name: 'graph', weight: 0.5, ranked: [{ memoryId: 'b', score: 1 }] },
    ]);
    assert.deepEqual(
      fused.map((f) => f.memoryId),
      ['b', 'a'],
    );
    assert.ok(Math.abs(fused[0]!.fused - (1 / 62 + 0.5 / 61)) < 1e-12);
    assert.ok(Math.abs(fused[1]!.fused - 1 / 61) < 1e-12);
    assert.deepEqual(fused[0]!.channels, { lexical: { rank: 2, score: 5 }, graph: { rank: 1, score: 1 } });
  });

  it('ignores channels with zero weight, so a weak channel can be switched off', () => {
    const fused = reciprocalRankFusion([
      { name: 'lexical', weight: 1, ranked: [{ memoryId: 'a', score: 1 }] },
      { name: 'dense', weight: 0, ranked: [{ memoryId: 'z', score: 1 }] },
    ]);
    assert.deepEqual(
      fused.map((f) => f.memoryId),
      ['a'],
    );
  });
});

describe('boosts and decay', () => {
  it('decays recency by trust: human-written memories decay slowest', () => {
    const old = NOW - 180 * DAY;
    const human = recencyFactor({ trust: 'human', validFrom: old }, NOW);
    const agent = recencyFactor({ trust: 'agent', validFrom: old }, NOW);
    const consolidation = recencyFactor({ trust: 'consolidation', validFrom: old }, NOW);
    assert.ok(human > agent && agent > consolidation, `${human} ${agent} ${consolidation}`);
    assert.ok(Math.abs(recencyFactor({ trust: 'human', validFrom: NOW }, NOW) - 1.1) < 1e-12);
    // A human memory one half-life old is halfway between the bounds.
    assert.ok(Math.abs(recencyFactor({ trust: 'human', validFrom: NOW - 365 * DAY }, NOW) - 1.0) < 1e-12);
  });

  it('boosts importance, pins, the current session and the layer that fits the intent', () => {
    const base = boostsFor(memory(), { intent: 'what', now: NOW }).total;
    assert.ok(boostsFor(memory({ importance: 1 }), { intent: 'what', now: NOW }).total > base);
    assert.ok(boostsFor(memory({ pinned: true }), { intent: 'what', now: NOW }).total > base);
    assert.ok(boostsFor(memory({ session: 's1' }), { intent: 'what', now: NOW, session: 's1' }).total > base);
    assert.ok(
      boostsFor(memory({ layer: 'codebase' }), { intent: 'where-in-code', now: NOW }).total >
        boostsFor(memory(), { intent: 'where-in-code', now: NOW }).total,
    );
    assert.ok(
      boostsFor(memory({ kind: 'decision' }), { intent: 'why', now: NOW }).total >
        boostsFor(memory(), { intent: 'why', now: NOW }).total,
    );
  });

  it('keeps every single boost within about 20% so relevance decides', () => {
    const extremes = [
      boostsFor(memory({ importance: 1, pinned: true, session: 's', layer: 'codebase' }), {
        intent: 'where-in-code',
        now: NOW,
        session: 's',
      }),
      boostsFor(memory({ importance: 0, trust: 'consolidation', validFrom: NOW - 3650 * DAY }), {
        intent: 'what',
        now: NOW,
      }),
    ];
    for (const boosts of extremes) {
      for (const [name, factor] of Object.entries(boosts)) {
        if (name !== 'total') assert.ok(factor >= 0.85 && factor <= 1.2, `${name} = ${factor}`);
      }
    }
  });
});

describe('intent classification', () => {
  for (const [query, intent] of [
    ['who owns the billing service?', 'who'],
    ['when did we move to Postgres?', 'when'],
    ['why did we choose sql.js', 'why'],
    ['how do I deploy to staging', 'how'],
    ['where is rate limiting handled', 'where-in-code'],
    ['what does getUserName return', 'where-in-code'],
    ['src/auth/login.ts', 'where-in-code'],
    ['what is the API base URL', 'what'],
  ] as const) {
    it(`"${query}" -> ${intent}`, () => assert.equal(classifyIntent(query), intent));
  }
});

describe('advice requests', () => {
  it('are recommendation, suggestion and advice questions, not questions about what happened', () => {
    for (const query of [
      'Can you recommend some resources where I can learn more about video editing?',
      "I've been feeling like my chocolate chip cookies need something extra. Any advice?",
      'Can you suggest some activities that I can do in the evening?',
      'Any tips for my slow cooker?',
      'Do you think it would be a good idea to attend my high school reunion?',
      'What should I serve for dinner this weekend?',
    ])
      assert.equal(asksForAdvice(query), true, query);
    for (const query of [
      'How many days did I spend in Hawaii?',
      'Which show did I start watching first?',
      'Why did we choose sql.js?',
      'where is the retry logic implemented',
    ])
      assert.equal(asksForAdvice(query), false, query);
  });
});

describe('tie-aware ranks', () => {
  it('gives tied scores the average of the ranks they span', async () => {
    const { tieAwareRanks } = await import('../../engine/retrieval/fusion');
    assert.deepEqual(tieAwareRanks([9, 5, 5, 5, 1]), [1, 3, 3, 3, 5]);
    assert.deepEqual(tieAwareRanks([2, 2]), [1.5, 1.5]);
    assert.deepEqual(tieAwareRanks([]), []);
  });

  it('does not let an undecided channel hand out rank 1', () => {
    const fused = reciprocalRankFusion([
      {
        name: 'lexical',
        weight: 1,
        ranked: [
          { memoryId: 'a', score: 3 },
          { memoryId: 'b', score: 2 },
        ],
      },
      {
        name: 'graph',
        weight: 1,
        ranked: Array.from({ length: 100 }, (_, i) => ({ memoryId: `g${i}`, score: 0.36 })),
      },
    ]);
    // Without shared ranks g0 would score 1/61 and tie with a, ahead of b.
    assert.deepEqual(
      fused.slice(0, 2).map((f) => f.memoryId),
      ['a', 'b'],
    );
  });
});
