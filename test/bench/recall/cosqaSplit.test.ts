import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadCosqa } from './datasets';
import { cosqaHalf, parseCosqaHalf } from './cosqaSplit';

const shared = path.resolve(__dirname, '../../../../shared/bench/cosqa');
const queries = path.join(shared, 'cosqa-retrieval-dev-500.json');
const corpus = path.join(shared, 'code_idx_map.txt');

describe('CoSQA tuning / reporting split', () => {
  it('puts a query in a half by sha1(idx) parity, the same on every run', () => {
    // sha1('cosqa-train-8333') ends in an odd digit, sha1('cosqa-train-1') in an even one.
    assert.equal(cosqaHalf('cosqa-train-8333'), 'reporting');
    assert.equal(cosqaHalf('cosqa-train-1'), 'tuning');
  });

  it('rejects a --split that names no half', () => {
    assert.equal(parseCosqaHalf(undefined), undefined);
    assert.equal(parseCosqaHalf('tuning'), 'tuning');
    assert.throws(() => parseCosqaHalf('test'), /--split must be tuning or reporting; got test/);
  });

  it('keeps only the asked half and the whole corpus', () => {
    // The data sits beside the repository in CI (../shared); a missing copy is a failure, not a skip.
    assert.ok(
      existsSync(queries),
      `CoSQA queries not found at ${queries}: put ../shared beside the repository`,
    );
    const all = loadCosqa(queries, corpus);
    const tuning = loadCosqa(queries, corpus, 'tuning');
    const reporting = loadCosqa(queries, corpus, 'reporting');
    assert.deepEqual([tuning.queries.length, reporting.queries.length], [253, 247]);
    assert.equal(tuning.docs.length, all.docs.length);
    assert.ok(tuning.queries.every((q) => cosqaHalf(q.id) === 'tuning'));
    assert.equal(tuning.name, 'cosqa-dev-tuning');
  });
});
