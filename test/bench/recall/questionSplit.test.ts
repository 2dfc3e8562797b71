import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseHalf, questionHalf } from './questionSplit';

describe('the LongMemEval question split', () => {
  it('puts a question in the half the parity of its sha1 names, so the rule cannot drift', () => {
    // Pinned: sha1('06db6396') starts with an even byte, sha1('001be529') with an odd one.
    assert.equal(questionHalf('06db6396'), 'tuning');
    assert.equal(questionHalf('08e075c7'), 'tuning');
    assert.equal(questionHalf('001be529'), 'reporting');
    assert.equal(questionHalf('07741c45'), 'reporting');
  });

  it('halves a set of ids roughly evenly', () => {
    const ids = Array.from({ length: 1000 }, (_, i) => `q${i}`);
    const tuning = ids.filter((id) => questionHalf(id) === 'tuning').length;
    assert.ok(tuning > 450 && tuning < 550, `tuning half of 1000: ${tuning}`);
  });

  it('names the half of a --split value and rejects anything else in one line', () => {
    assert.equal(parseHalf('tuning'), 'tuning');
    assert.equal(parseHalf('reporting'), 'reporting');
    assert.throws(() => parseHalf('held-out'), /--split: expected tuning or reporting; got "held-out"/);
    assert.throws(() => parseHalf(undefined), /got nothing/);
  });
});
