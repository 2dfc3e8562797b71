/**
 * The tables docs/benchmarks.md shows from docs/figures/recall.json (`npm run bench:recall --
 * --record`): headline metrics per benchmark and system, then the same per question category.
 */
import type { BenchRecord } from './benchRecord';
import { decimal3, markdownTable } from './markdownTable';
import { provenanceLine } from './provenanceLine';

/** system -> group ("overall" or a category) -> metric -> value; `n` is the group's query count. */
type Scores = Record<string, Record<string, Record<string, number>>>;

export interface RecallFigures {
  locomo?: Scores;
  longmemeval?: Scores;
  cosqa?: Scores;
  load: { withDense: boolean; corpora: Array<{ corpus: string; docs: number; seconds: number }> };
}

export const RECALL_RECORD = 'docs/figures/recall.json';

const BENCHMARKS = [
  ['locomo', 'LoCoMo'],
  ['longmemeval', 'LongMemEval oracle'],
  ['cosqa', 'CoSQA dev'],
] as const;

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
  return BENCHMARKS.flatMap(([key, label]) => {
    const scores = figures[key];
    if (!scores) return [];
    const systems = Object.keys(scores);
    const overall = scores[systems[0]!]?.['overall'];
    if (!overall) throw new Error(`${RECALL_RECORD}: ${key} has no overall scores`);
    const metrics = Object.keys(overall).filter((m) => m !== 'n');
    return [{ key, label, scores, systems, metrics, questions: overall['n'] ?? 0 }];
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
    benches.map((b) => [
      `${b.label}, ${b.questions} questions`,
      b.metrics.join(' / '),
      ...systems.map((s) => cell(b.scores[s]?.['overall'], b.metrics)),
    ]),
  );
  const loads = figures.load.corpora
    .map((c) => `${c.corpus} ${c.docs} in ${c.seconds} s (${Math.round(c.docs / c.seconds)}/s)`)
    .join(', ');
  const model = figures.load.withDense ? 'with USE-lite embedding in the write path' : 'no embedding model';
  return [
    provenanceLine(record.provenance, RECALL_RECORD),
    table,
    `Loading through \`rememberMany\` (${model}), memories per corpus: ${loads}.`,
  ].join('\n\n');
}

/** Per question category, one table per benchmark. */
export function renderRecallCategories(record: BenchRecord<RecallFigures>): string {
  const { figures } = record;
  return covered(figures)
    .map((b) => {
      const categories = Object.keys(b.scores[b.systems[0]!]!).filter((g) => g !== 'overall');
      const table = markdownTable(
        ['category (questions)', ...b.systems.map((s) => systemLabel(s, figures.load.withDense))],
        categories.map((category) => [
          `${b.key === 'locomo' ? (LOCOMO_CATEGORIES[category] ?? category) : category} (${b.scores[b.systems[0]!]![category]!['n']})`,
          ...b.systems.map((s) => cell(b.scores[s]?.[category], b.metrics)),
        ]),
      );
      return `${b.label}, ${b.metrics.join(' / ')}:\n\n${table}`;
    })
    .join('\n\n');
}
