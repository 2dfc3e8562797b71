import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { curveValue, decayRate, DEFAULT_RETENTION, retentionOf } from '../../engine/lifecycle/retention';
import type { RetentionCurve } from '../../engine/lifecycle/retention';
import { importanceOf, IMPORTANCE_WEIGHTS } from '../../engine/lifecycle/importance';

const episode = {
  layer: 'episodic' as const,
  trust: 'human' as const,
  pinned: false,
  critical: false,
  accessCount: 0,
};

describe('retention', () => {
  it('a human-written episode keeps half after the half-life; an agent-written one decays faster (kappa)', () => {
    const settings = { ...DEFAULT_RETENTION, curve: 'exponential' as const };
    assert.ok(Math.abs(retentionOf({ ...episode, ageDays: 30 }, settings) - 0.5) < 1e-9);
    // lambda_eff = lambda * (1 + 2 * (1 - 0.7)) = 1.6 lambda
    assert.ok(Math.abs(decayRate('agent') / decayRate('human') - 1.6) < 1e-9);
    assert.ok(retentionOf({ ...episode, trust: 'agent', ageDays: 30 }, settings) < 0.5);
  });

  it('every curve starts at 1 and falls with age; huber and elastic reach 0, the exponential never', () => {
    const rate = decayRate('human');
    for (const curve of ['exponential', 'huber', 'elastic'] as RetentionCurve[]) {
      const settings = { ...DEFAULT_RETENTION, curve };
      const values = [0, 10, 30, 60, 120, 240, 480].map((d) => curveValue(d, rate, settings));
      assert.equal(values[0], 1, curve);
      for (let i = 1; i < values.length; i++) assert.ok(values[i]! <= values[i - 1]!, `${curve} falls`);
      if (curve === 'exponential') assert.ok(values.at(-1)! > 0);
      else assert.equal(values.at(-1), 0, `${curve} ends`);
    }
    // Huber matches the exponential before its turn (0.5 half-lives = 15 days).
    const huber = { ...DEFAULT_RETENTION, curve: 'huber' as const };
    assert.equal(curveValue(10, rate, huber), Math.exp(-rate * 10));
  });

  it('semantic, procedural, codebase, pinned and critical memories do not decay; recalls reinforce, capped', () => {
    for (const layer of ['semantic', 'procedural', 'codebase'] as const)
      assert.equal(retentionOf({ ...episode, layer, ageDays: 1000 }), 1);
    assert.equal(retentionOf({ ...episode, pinned: true, ageDays: 1000 }), 1);
    assert.equal(retentionOf({ ...episode, critical: true, ageDays: 1000 }), 1);
    const old = retentionOf({ ...episode, ageDays: 1000 });
    const recalled = retentionOf({ ...episode, ageDays: 1000, accessCount: 1000 });
    assert.ok(recalled > old && recalled - old <= DEFAULT_RETENTION.maxReinforcement + 1e-9);
  });
});

describe('importance', () => {
  it('is the weighted sum of its factors, each between 0 and 1, the weights summing to 1', () => {
    const total = Object.values(IMPORTANCE_WEIGHTS).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(total - 1) < 1e-9);
    const low = importanceOf({
      base: 0.1,
      accessCount: 0,
      retention: 0.05,
      entityCount: 0,
      trust: 'ingest',
      accessDays: 0,
      layer: 'episodic',
      confirmations: 1,
    });
    const high = importanceOf({
      base: 0.9,
      accessCount: 30,
      retention: 1,
      entityCount: 8,
      trust: 'human',
      accessDays: 9,
      layer: 'semantic',
      confirmations: 5,
    });
    assert.ok(low.score < 0.3 && high.score > 0.9, `${low.score} ${high.score}`);
    const sum = high.factors.reduce((s, f) => s + f.contribution, 0);
    assert.ok(Math.abs(sum - high.score) < 0.01);
    for (const f of [...low.factors, ...high.factors]) assert.ok(f.value >= 0 && f.value <= 1, f.factor);
  });
});
