/**
 * The tables docs/benchmarks.md shows from docs/figures/recall.json (`npm run bench:recall --
 * --no-dense --record`) and docs/figures/recall-model.json (the same with the default model):
 * headline metrics per benchmark and system, overall and per half of the benchmark's fixed split
 * where it has one, then the same per question category.
 */
import type { BenchRecord } from './benchRecord';
import { decimal3, markdownTable } from './markdownTable';
import { provenanceLine } from './provenanceLine';

/** system -> group ("overall" or a category) -> metric -> value; `n` is the group's query count. */
type Scores = Record<string, Record<string, Record<string, number>>>;

export interface RecallFigures {
  locomo?: Scores;
  /** LongMemEval over the pooled corpus of every question's sessions. */
  longmemeval?: Scores;
  /** LongMemEval with each question over its own history (`--haystack N`: its evidence and N others). */
  'longmemeval-haystack'?: Scores;
  haystack?: number;
  cosqa?: Scores;
  load: { withDense: boolean; corpora: Array<{ corpus: string; docs: number; seconds: number }> };
}

export const RECALL_RECORD = 'docs/figures/recall.json';
/** The record of a run with the default embedding model (the bench without `--no-dense`). */
export const RECALL_MODEL_BENCH = 'recall-model';
export const RECALL_MODEL_RECORD = `docs/figures/${RECALL_MODEL_BENCH}.json`;

const BENCHMARKS = ['locomo', 'longmemeval', 'longmemeval-haystack', 'cosqa'] as const;

const benchLabel = (key: (typeof BENCHMARKS)[number], figures: RecallFigures): string => {
  if (key === 'locomo') return 'LoCoMo';
  if (key === 'cosqa') return 'CoSQA dev';
  if (key === 'longmemeval')
    return figures['longmemeval-haystack'] ? 'LongMemEval oracle, pooled' : 'LongMemEval oracle';
  return `LongMemEval oracle, own history (haystack ${figures.haystack ?? '?'})`;
};

/** The groups scoreGroups.ts adds per half of a fixed split, shown under each benchmark's overall row. */
const HALVES = ['tuning half', 'reporting half'];

/** LoCoMo's file numbers its categories; the names are the ones its evaluations use. */
const LOCOMO_CATEGORIES: Record<string, string> = {
  '1': 'multi-hop',
  '2': 'temporal',
  '3': 'open-domain',
  '4': 'single-hop',
};

const systemLabel = (system: string, withDense: boolean) =>
  system === 'engram-hybrid' && !withDense ? 'engram-hybrid (no model)' : system;

/** The benchmarks the run covered, with their systems in the bench's order and metric names. */
function covered(figures: RecallFigures) {
  return BENCHMARKS.flatMap((key) => {
    const label = benchLabel(key, figures);
    const scores = figures[key];
    if (!scores) return [];
    const systems = Object.keys(scores);
    const overall = scores[systems[0]!]?.['overall'];
    if (!overall) throw new Error(`${RECALL_RECORD}: ${key} has no overall scores`);
    const metrics = Object.keys(overall).filter((m) => m !== 'n');
    const halves = HALVES.filter((h) => scores[systems[0]!]?.[h]);
    return [{ key, label, scores, systems, metrics, halves, questions: overall['n'] ?? 0 }];
  });
}

const cell = (values: Record<string, number> | undefined, metrics: string[]) =>
  values ? metrics.map((m) => decimal3(values[m] ?? Number.NaN)).join(' / ') : '-';

export function renderRecall(record: BenchRecord<RecallFigures>): string {
  const { figures } = record;
  const benches = covered(figures);
  const systems = [...new Set(benches.flatMap((b) => b.systems))];
  const table = markdownTable(
    ['benchmark', 'metrics', ...systems.map((s) => systemLabel(s, figures.load.withDense))],
    benches.flatMap((b) => [
      [
        `${b.label}, ${b.questions} questions`,
        b.metrics.join(' / '),
        ...systems.map((s) => cell(b.scores[s]?.['overall'], b.metrics)),
      ],
      ...b.halves.map((half) => [
        `${half}, ${b.scores[b.systems[0]!]![half]!['n']} questions`,
        b.metrics.join(' / '),
        ...systems.map((s) => cell(b.scores[s]?.[half], b.metrics)),
      ]),
    ]),
  );
  const loads = figures.load.corpora
    .map((c) => `${c.corpus} ${c.docs} in ${c.seconds} s (${Math.round(c.docs / c.seconds)}/s)`)
    .join(', ');
  const model = figures.load.withDense ? 'with USE-lite embedding in the write path' : 'no embedding model';
  return [
    provenanceLine(record.provenance, `docs/figures/${record.bench}.json`),
    table,
    `Loading through \`rememberMany\` (${model}), memories per corpus: ${loads}.`,
  ].join('\n\n');
}

/** Per question category, one table per benchmark. */
export function renderRecallCategories(record: BenchRecord<RecallFigures>): string {
  const { figures } = record;
  return covered(figures)
    .map((b) => {
      // Each category, then the same category within each half, in the bench's order.
      const groups = Object.keys(b.scores[b.systems[0]!]!);
      const categories = groups
        .filter((g) => g !== 'overall' && !HALVES.includes(g) && !g.includes(', '))
        .flatMap((c) => [c, ...HALVES.map((h) => `${c}, ${h}`).filter((g) => groups.includes(g))]);
      const name = (group: string) => {
        const [category = group, half] = group.split(', ');
        const named = b.key === 'locomo' ? (LOCOMO_CATEGORIES[category] ?? category) : category;
        return half ? `${named}, ${half}` : named;
      };
      const table = markdownTable(
        ['category (questions)', ...b.systems.map((s) => systemLabel(s, figures.load.withDense))],
        categories.map((category) => [
          `${name(category)} (${b.scores[b.systems[0]!]![category]!['n']})`,
          ...b.systems.map((s) => cell(b.scores[s]?.[category], b.metrics)),
        ]),
      );
      return `${b.label}, ${b.metrics.join(' / ')}:\n\n${table}`;
    })
    .join('\n\n');
}
