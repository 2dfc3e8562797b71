/**
 * Localisation quality on real issues: for each instance (an issue, its repository's commit and
 * the files its fix touched) whose repository's git directory is in the clones folder, the tree at
 * `base_commit` is extracted with `git archive` into a temp folder, scanned by Engram into a temp
 * database, and queried with the issue text. Reported per ranker, per repository, per half of the
 * fixed split (localizationSplit.ts) and overall: file-level hit@1/@5/@10 and MRR, beside two BM25
 * baselines over whole files computed in the same run on the same tree. A benchmark, not a test.
 *
 * Usage: npm run bench:localize -- INSTANCES.json CLONES_DIR [--json] [--limit N] [--repo NAME] [--record]
 *   INSTANCES.json  a list of {instance_id, repo: "owner/name", base_commit, problem_statement,
 *                   gold_files} (the SWE-bench-verified localisation format)
 *   CLONES_DIR      holds git clones named <name> or <owner>__<name>, or mirrors
 *                   <owner>+<name>/repo (as the fetch tool leaves them, e.g. /work/.mirror);
 *                   instances of other repositories are left out.
 *   --record        writes the figures and the run's provenance to docs/figures/localize.json (then
 *                   `npm run figures` renders them into docs/benchmarks.md); a record is of every
 *                   instance, so not with --limit or --repo.
 *
 * Rankers: `bm25` (letters and digits), `bm25-code` (identifiers whole and split, and the path),
 * `bm25-code-src` (the same over source files only: the strongest of the three);
 * the product's channels alone: `recall` (recall of the issue text over the codebase layer,
 * memories mapped to files), `map` (the repo map personalised by the issue text), `code` (the
 * lexical channel over the code index, engine/code/codeSearch.ts); and `locate`, the product's
 * answer to "where should I look?" (method `locate`). The dense channel is off, so figures do not
 * depend on a model download.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Bm25Files } from './bm25Files';
import { extractTree, gitDirOf, openScanHost, trackedFiles } from './localizationCheckout';
import { filesOfRecallHits, hitRates, hitTable } from './localizationMetrics';
import type { RankedRun } from './localizationMetrics';
import { splitRepositories } from './localizationSplit';
import type { Half } from './localizationSplit';
import { machine, median } from './stats';
import { startRun, writeRecord } from './figures/benchRecord';

interface Instance {
  instance_id: string;
  repo: string;
  base_commit: string;
  problem_statement: string;
  gold_files: string | string[];
}

const RANKERS = ['bm25', 'bm25-code', 'bm25-code-src', 'recall', 'map', 'code', 'locate'] as const;
type Ranker = (typeof RANKERS)[number];
type Runs = Record<Ranker, RankedRun[]>;
const DEPTH = 100;

const emptyRuns = (): Runs => ({
  bm25: [],
  'bm25-code': [],
  'bm25-code-src': [],
  recall: [],
  map: [],
  code: [],
  locate: [],
});
/** Source files by extension, for the baseline that leaves docs, data and config out (the bench's own list). */
const SOURCE_FILE = /\.(py|pyi|ts|tsx|js|jsx|mjs|cjs|go|rs|java|kt|c|h|cc|cpp|hpp|cs|rb|php|swift)$/;

function goldFiles(instance: Instance): string[] {
  if (Array.isArray(instance.gold_files)) return instance.gold_files;
  // A Python list literal of plain paths: "['a/b.py', 'c.py']".
  return [...instance.gold_files.matchAll(/'([^']+)'|"([^"]+)"/g)].map((m) => m[1] ?? m[2] ?? '');
}

async function rankRepo(gitDir: string, repo: string, instances: Instance[], log: (s: string) => void) {
  const work = mkdtempSync(path.join(os.tmpdir(), 'engram-locbench-'));
  const tree = path.join(work, repo.split('/')[1]!);
  const runs = emptyRuns();
  // Times per call: the first query after a scan (locate) builds the code channel's index.
  const times = { first: [] as number[], locate: [] as number[], recall: [] as number[] };
  const timed = async <T>(into: number[], run: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    const result = await run();
    into.push(performance.now() - t);
    return result;
  };
  const host = await openScanHost(work, tree);
  let request = 0;
  const call = (method: string, params: Record<string, unknown>) =>
    host.dispatch(method, params, { requestId: `loc-${++request}`, client: 'bench' });
  try {
    // Sorted by commit so instances at one commit share a scan.
    for (const instance of [...instances].sort((a, b) => a.base_commit.localeCompare(b.base_commit))) {
      extractTree(gitDir, tree, instance.base_commit);
      const started = performance.now();
      await call('scan', { tokens: false });
      const scanMs = performance.now() - started;
      const query = instance.problem_statement;
      const gold = goldFiles(instance);
      const located = async (into: number[], channels?: string[]) => {
        const result = (await timed(into, () =>
          call('locate', { query, limit: DEPTH, ...(channels ? { channels } : {}) }),
        )) as { files: Array<{ path: string }> };
        return result.files.map((f) => f.path);
      };
      const code = await located(times.first, ['code']);
      // recall and map take at most 4000 characters (MAX_QUERY_CHARS): what a client would send.
      const short = query.slice(0, 4000);
      const recalled = (await timed(times.recall, () =>
        call('recall', { query: short, k: DEPTH, layer: 'codebase', readOnly: true }),
      )) as { hits: Parameters<typeof filesOfRecallHits>[0] };
      const map = (await call('map', { query: short, budget: 100_000 })) as {
        files: Array<{ path: string }>;
      };
      const files = trackedFiles(gitDir, instance.base_commit);
      const ranked: Record<Ranker, string[]> = {
        bm25: Bm25Files.fromFiles(tree, files, 'plain').search(query, DEPTH),
        'bm25-code': Bm25Files.fromFiles(tree, files, 'code').search(query, DEPTH),
        'bm25-code-src': Bm25Files.fromFiles(
          tree,
          files.filter((f) => SOURCE_FILE.test(f)),
          'code',
        ).search(query, DEPTH),
        recall: filesOfRecallHits(recalled.hits),
        map: map.files.map((f) => f.path),
        code,
        locate: await located(times.locate),
      };
      for (const ranker of RANKERS)
        runs[ranker].push({ id: instance.instance_id, gold, ranked: ranked[ranker] });
      log(
        `${instance.instance_id}: scan ${Math.round(scanMs)} ms; first gold rank ${RANKERS.map((r) => `${r} ${firstHit(ranked[r], gold)}`).join(', ')}`,
      );
    }
  } finally {
    await host.close();
    rmSync(work, { recursive: true, force: true });
  }
  return { runs, times };
}

function firstHit(ranked: string[], gold: string[]): string {
  const index = ranked.findIndex((f) => gold.includes(f));
  return index < 0 ? '-' : String(index + 1);
}

const asMap = (runs: Runs, keep: (run: RankedRun) => boolean) =>
  new Map(RANKERS.map((r) => [r, runs[r].filter(keep)] as const));

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const option = (name: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const valued = new Set(['--limit', '--repo'].flatMap((o) => [o, option(o)]));
  const [instancesFile, clones] = args.filter((a) => !a.startsWith('--') && !valued.has(a));
  if (!instancesFile || !clones) {
    console.error(
      'usage: localizationBench INSTANCES.json CLONES_DIR [--json] [--limit N] [--repo NAME] [--record]',
    );
    process.exit(1);
  }
  if (args.includes('--record') && (option('--limit') !== undefined || option('--repo') !== undefined)) {
    console.error('localizationBench: --record keeps a run over every instance; drop --limit and --repo');
    process.exit(1);
  }
  const run = args.includes('--record') ? startRun('test/bench/localizationBench.ts', args) : undefined;
  const limit = Number(option('--limit') ?? Infinity);
  const only = option('--repo');
  const all = JSON.parse(readFileSync(instancesFile, 'utf8')) as Instance[];
  const halves = splitRepositories(all);
  const byRepo = new Map<string, Instance[]>();
  for (const instance of all) {
    if (!gitDirOf(clones, instance.repo) || (only && !instance.repo.endsWith(`/${only}`))) continue;
    const list = byRepo.get(instance.repo) ?? [];
    if (list.length < limit) list.push(instance);
    byRepo.set(instance.repo, list);
  }
  const log = (line: string) => (json ? console.error(line) : console.log(line));
  const runs = emptyRuns();
  const latencies: string[] = [];
  const latencyMs: Record<string, { first: number; locate: number; recall: number }> = {};
  const repoOf = new Map<string, string>();
  for (const [repo, instances] of byRepo) {
    log(`${repo} (${halves.get(repo)} half): ${instances.length} instances`);
    const ranked = await rankRepo(gitDirOf(clones, repo)!, repo, instances, log);
    for (const ranker of RANKERS) runs[ranker].push(...ranked.runs[ranker]);
    latencies.push(
      `${repo}: p50 ${Math.round(median(ranked.times.first))} ms for the first query after a scan (locate, building the code index), then locate ${Math.round(median(ranked.times.locate))} ms, recall ${Math.round(median(ranked.times.recall))} ms`,
    );
    latencyMs[repo] = {
      first: Math.round(median(ranked.times.first)),
      locate: Math.round(median(ranked.times.locate)),
      recall: Math.round(median(ranked.times.recall)),
    };
    for (const instance of instances) repoOf.set(instance.instance_id, repo);
  }
  const inHalf = (half: Half) => (run: RankedRun) => halves.get(repoOf.get(run.id)!) === half;
  const report = {
    date: new Date().toISOString().slice(0, 10),
    machine: machine(),
    load: os.loadavg().map((l) => l.toFixed(2)),
    instances: runs.bm25.length,
    repositories: Object.fromEntries([...byRepo].map(([repo, list]) => [repo, list.length])),
    halves: Object.fromEntries([...byRepo.keys()].map((repo) => [repo, halves.get(repo)])),
    latency: latencies,
    rankers: {
      tuning: Object.fromEntries(RANKERS.map((r) => [r, hitRates(runs[r].filter(inHalf('tuning')))])),
      reporting: Object.fromEntries(RANKERS.map((r) => [r, hitRates(runs[r].filter(inHalf('reporting')))])),
      all: Object.fromEntries(RANKERS.map((r) => [r, hitRates(runs[r])])),
    },
    byRepository: Object.fromEntries(
      [...byRepo.keys()].map((repo) => {
        const own = (r: Ranker) => runs[r].filter((one) => repoOf.get(one.id) === repo);
        const rates = Object.fromEntries(RANKERS.map((r) => [r, hitRates(own(r))]));
        return [repo, { half: halves.get(repo), rankers: rates, latencyMs: latencyMs[repo] }];
      }),
    ),
  };
  if (run) {
    const { date: _date, machine: _machine, load: _load, ...figures } = report;
    console.error(`recorded ${writeRecord('localize', run, figures)}; now: npm run figures`);
  }
  if (json) {
    console.log(JSON.stringify(report, null, 2));
    return;
  }
  console.log(
    `\n${report.instances} instances, ${report.date}, ${report.machine}, load ${report.load.join(' ')}`,
  );
  for (const repo of byRepo.keys())
    console.log(
      `\n${hitTable(
        `${repo} (${halves.get(repo)}, ${byRepo.get(repo)!.length})`,
        asMap(runs, (run) => repoOf.get(run.id) === repo),
      )}`,
    );
  for (const half of ['tuning', 'reporting'] as const) {
    const size = runs.bm25.filter(inHalf(half)).length;
    console.log(`\n${hitTable(`${half} half (${size})`, asMap(runs, inHalf(half)))}`);
  }
  console.log(
    `\n${hitTable(
      `all (${report.instances})`,
      asMap(runs, () => true),
    )}`,
  );
  console.log(`\n${latencies.join('\n')}`);
}

void main();
