import { round } from './stats';

/** One query's ranked files against the files its fix touched. */
export interface RankedRun {
  id: string;
  gold: string[];
  ranked: string[];
}

export interface HitRates {
  hit1: number;
  hit5: number;
  hit10: number;
  /** Mean reciprocal rank of the first gold file (0 when none is ranked). */
  mrr: number;
}

/** File-level hit@k: the share of queries with at least one gold file in the top k. */
export function hitRates(runs: readonly RankedRun[]): HitRates {
  if (runs.length === 0) return { hit1: 0, hit5: 0, hit10: 0, mrr: 0 };
  const firsts = runs.map((run) => run.ranked.findIndex((file) => run.gold.includes(file)));
  const within = (k: number) => firsts.filter((i) => i >= 0 && i < k).length / runs.length;
  const mrr = firsts.reduce((sum, i) => sum + (i >= 0 ? 1 / (i + 1) : 0), 0) / runs.length;
  return { hit1: within(1), hit5: within(5), hit10: within(10), mrr };
}

/** One table: a row per ranker of hit@1/@5/@10 and MRR over the given runs. */
export function hitTable(title: string, runsByRanker: ReadonlyMap<string, readonly RankedRun[]>): string {
  const width = Math.max(16, ...[...runsByRanker.keys()].map((r) => r.length + 1));
  const lines = [title, `${'ranker'.padEnd(width)} hit@1  hit@5  hit@10  MRR`];
  for (const [ranker, runs] of runsByRanker) {
    const h = hitRates(runs);
    lines.push(
      `${ranker.padEnd(width)} ${[h.hit1, h.hit5, h.hit10, h.mrr].map((v) => round(v, 3).toFixed(3).padStart(6)).join(' ')}`,
    );
  }
  return lines.join('\n');
}

/** Recall's hits as files: codebase memories by their conflict key (`code:file:`, `code:symbol:path#`) or source. */
export function filesOfRecallHits(
  hits: Array<{ memory: { conflictKey: string | null; source: { file?: string } | null } }>,
) {
  const files: string[] = [];
  for (const { memory } of hits) {
    const key = memory.conflictKey?.match(/^code:(?:file|config):(.+)$|^code:symbol:(.+?)#/);
    const file = key ? (key[1] ?? key[2]) : memory.source?.file;
    if (file && !files.includes(file)) files.push(file);
  }
  return files;
}
