/**
 * The tables docs/benchmarks.md shows from docs/figures/localize.json (`npm run bench:localize --
 * INSTANCES CLONES --record`): every ranker per half of the split, then hit@5 per repository.
 */
import type { HitRates } from '../localizationMetrics';
import type { Half } from '../localizationSplit';
import type { BenchRecord } from './benchRecord';
import { decimal3, markdownTable } from './markdownTable';
import { provenanceLine } from './provenanceLine';

export interface LocalizeFigures {
  instances: number;
  repositories: Record<string, number>;
  halves: Record<string, Half>;
  rankers: Record<Half | 'all', Record<string, HitRates>>;
  byRepository: Record<
    string,
    {
      half: Half;
      rankers: Record<string, HitRates>;
      latencyMs: { first: number; locate: number; recall: number };
    }
  >;
}

export const LOCALIZE_RECORD = 'docs/figures/localize.json';

const rates = (h: HitRates | undefined) =>
  h ? [h.hit1, h.hit5, h.hit10, h.mrr].map(decimal3).join(' / ') : '-';

export function renderLocalize(record: BenchRecord<LocalizeFigures>): string {
  const { figures } = record;
  const size = (half: Half) =>
    Object.entries(figures.repositories)
      .filter(([repo]) => figures.halves[repo] === half)
      .reduce((sum, [, count]) => sum + count, 0);
  const rankers = Object.keys(figures.rankers.all);
  const table = markdownTable(
    [
      'ranker',
      `tuning half (${size('tuning')})`,
      `reporting half (${size('reporting')})`,
      `all (${figures.instances})`,
    ],
    rankers.map((r) => [
      `\`${r}\``,
      rates(figures.rankers.tuning[r]),
      rates(figures.rankers.reporting[r]),
      rates(figures.rankers.all[r]),
    ]),
  );
  return [provenanceLine(record.provenance, LOCALIZE_RECORD), 'hit@1 / hit@5 / hit@10 / MRR:', table].join(
    '\n\n',
  );
}

/** hit@5 per repository and ranker, with each repository's p50 query times. */
export function renderLocalizeRepositories(record: BenchRecord<LocalizeFigures>): string {
  const { figures } = record;
  const repos = Object.keys(figures.byRepository).sort();
  const rankers = Object.keys(figures.rankers.all);
  const table = markdownTable(
    ['repository', 'half', 'instances', ...rankers, 'p50 ms: first / locate / recall'],
    repos.map((repo) => {
      const own = figures.byRepository[repo]!;
      const t = own.latencyMs;
      return [
        repo,
        own.half,
        String(figures.repositories[repo] ?? 0),
        ...rankers.map((r) => (own.rankers[r] ? decimal3(own.rankers[r].hit5) : '-')),
        `${t.first} / ${t.locate} / ${t.recall}`,
      ];
    }),
  );
  return [
    'Per repository, hit@5, and the p50 time of a query: the first after a scan (`locate`, which builds',
    "the code channel's index), then `locate`, then `recall`:",
    '',
    table,
  ].join('\n');
}
