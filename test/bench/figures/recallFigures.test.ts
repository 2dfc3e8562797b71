import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BenchRecord } from './benchRecord';
import { renderRecall, renderRecallCategories } from './recallFigures';
import type { RecallFigures } from './recallFigures';

const provenance = {
  command: 'npm run bench:recall -- --longmemeval --haystack 40 --record',
  commit: 'abc1234',
  dirty: false,
  started: '2026-11-29 21:00 UTC',
  finished: '2026-11-29 21:05 UTC',
  machine: 'test machine',
  load: { start: 1, end: 2 },
};

const scores = (any: number, half: number) => ({
  'bm25-plain': {
    overall: { 'recall_any@5': any, 'recall_all@5': any, n: 4 },
    'single-session-preference': { 'recall_any@5': any, 'recall_all@5': any, n: 4 },
    'tuning half': { 'recall_any@5': any, 'recall_all@5': any, n: 2 },
    'reporting half': { 'recall_any@5': half, 'recall_all@5': half, n: 2 },
    'single-session-preference, reporting half': { 'recall_any@5': half, 'recall_all@5': half, n: 2 },
  },
});

const record: BenchRecord<RecallFigures> = {
  bench: 'recall',
  provenance,
  figures: {
    longmemeval: scores(0.5, 0.25),
    'longmemeval-haystack': scores(0.75, 0.875),
    haystack: 40,
    load: { withDense: false, corpora: [{ corpus: 'longmemeval-oracle', docs: 940, seconds: 10 }] },
  },
};

describe('recall figures', () => {
  it('shows LongMemEval pooled and over each question own history, with each half of the split', () => {
    const lines = renderRecall(record).split('\n');
    const row = (label: string) => lines.find((l) => l.startsWith(`| ${label} `));
    assert.match(row('LongMemEval oracle, pooled, 4 questions') ?? '', /\| 0\.500 \/ 0\.500 +\|$/);
    assert.match(row('reporting half, 2 questions') ?? '', /\| 0\.250 \/ 0\.250 +\|$/);
    assert.match(
      row('LongMemEval oracle, own history (haystack 40), 4 questions') ?? '',
      /\| 0\.750 \/ 0\.750 +\|$/,
    );
    const halves = lines.filter((l) => l.startsWith('| reporting half, 2 questions '));
    assert.deepEqual(
      halves.map((l) => /(\d\.\d{3}) \/ \d\.\d{3} +\|$/.exec(l)?.[1]),
      ['0.250', '0.875'],
    );
  });

  it('names the record it was generated from: the model run has its own', () => {
    assert.match(renderRecall(record), /Generated from `docs\/figures\/recall\.json`/);
    const model = renderRecall({ ...record, bench: 'recall-model' });
    assert.match(model, /Generated from `docs\/figures\/recall-model\.json`/);
  });

  it('lists per category and per half in the categories block of each regime', () => {
    const text = renderRecallCategories(record);
    assert.match(text, /LongMemEval oracle, own history \(haystack 40\), recall_any@5 \/ recall_all@5:/);
    assert.match(text, /\| single-session-preference, reporting half \(2\) +\| 0\.875 \/ 0\.875 +\|/);
  });
});
