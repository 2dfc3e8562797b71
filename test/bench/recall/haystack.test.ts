import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { haystacks, withinHaystack } from './haystack';
import type { BenchCorpus } from './datasets';

const corpus: BenchCorpus = {
  name: 'pool',
  docs: Array.from({ length: 30 }, (_, i) => ({ id: `s${i}`, text: `session ${i}` })),
  queries: [
    { id: 'q1', text: 'one', gold: ['s1', 's2'], category: 'multi-session' },
    { id: 'q2', text: 'two', gold: ['s3'], category: 'single-session-user' },
  ],
};

describe('LongMemEval haystacks', () => {
  it("holds each question's evidence and the asked number of other sessions", () => {
    const stacks = haystacks(corpus, 10);
    const one = stacks.get('q1')!;
    assert.equal(one.size, 12);
    assert.ok(one.has('s1') && one.has('s2'));
    const two = stacks.get('q2')!;
    assert.equal(two.size, 11);
    assert.ok(two.has('s3'));
  });

  it('chooses the other sessions by the question id alone: the same every run, different per question', () => {
    const first = haystacks(corpus, 10);
    const again = haystacks({ ...corpus, docs: [...corpus.docs].reverse() }, 10);
    assert.deepEqual([...first.get('q1')!].sort(), [...again.get('q1')!].sort());
    const others = (id: string) => [...first.get(id)!].filter((s) => !['s1', 's2', 's3'].includes(s)).sort();
    assert.notDeepEqual(others('q1'), others('q2'));
  });

  it('cuts a ranking over the pool to the haystack, keeping its order', () => {
    assert.deepEqual(withinHaystack(['s9', 's1', 's4', 's2'], new Set(['s2', 's1'])), ['s1', 's2']);
  });
});
