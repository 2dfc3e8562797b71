/**
 * Localisation quality on real issues: for each instance (an issue, its repository's commit and
 * the files its fix touched) whose repository is cloned in the clones folder, the work tree is
 * put at `base_commit`, scanned by Engram into a temp database, and queried with the issue text.
 * Reported per ranker: file-level hit@1/@5/@10 and MRR, against a plain BM25 over whole files
 * computed in the same run on the same tree. A benchmark, not a test: it prints figures.
 *
 * Usage: npm run bench:localize -- INSTANCES.json CLONES_DIR [--json] [--limit N] [--repo NAME]
 *   INSTANCES.json  a list of {instance_id, repo: "owner/name", base_commit, problem_statement,
 *                   gold_files} (the SWE-bench-verified localisation format)
 *   CLONES_DIR      holds git clones named <name> or <owner>__<name>; instances of other
 *                   repositories are left out. Work trees go to CLONES_DIR/.engram-loc/<name>.
 *
 * Rankers: `engram-recall` (recall of the issue text over the codebase layer, memories mapped to
 * files by their conflict key or source file), `engram-map` (the repo map personalised by the
 * issue text) and `engram-fused` (the two fused by reciprocal rank). The dense channel is off, as
 * with ENGRAM_EMBEDDING=off, so figures do not depend on a model download.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EngineDispatcher } from '../../engine/api/engineDispatcher';
import { silentLogger } from '../../engine/host';
import { Bm25Files } from './bm25Files';
import { hitRates } from './localizationMetrics';
import type { RankedRun } from './localizationMetrics';
import { machine, round } from './stats';

interface Instance {
  instance_id: string;
  repo: string;
  base_commit: string;
  problem_statement: string;
  gold_files: string | string[];
}

const repoRoot = path.resolve(__dirname, '../..');
const RANKERS = ['bm25', 'engram-recall', 'engram-map', 'engram-fused'] as const;
type Ranker = (typeof RANKERS)[number];
const RRF_K = 60;

function goldFiles(instance: Instance): string[] {
  if (Array.isArray(instance.gold_files)) return instance.gold_files;
  // A Python list literal of plain paths: "['a/b.py', 'c.py']".
  return [...instance.gold_files.matchAll(/'([^']+)'|"([^"]+)"/g)].map((m) => m[1] ?? m[2] ?? '');
}

function cloneOf(clones: string, repo: string): string | undefined {
  const [owner, name] = repo.split('/');
  return [name, `${owner}__${name}`]
    .map((n) => path.join(clones, n ?? ''))
    .find((dir) => existsSync(path.join(dir, '.git')) || existsSync(path.join(dir, 'HEAD')));
}

/** One work tree per repository, moved from commit to commit; the index follows it incrementally. */
function checkout(clone: string, worktree: string, commit: string): void {
  if (!existsSync(worktree)) {
    mkdirSync(path.dirname(worktree), { recursive: true });
    execFileSync('git', ['-C', clone, 'worktree', 'add', '--detach', '--force', worktree, commit], {
      stdio: 'ignore',
    });
    return;
  }
  execFileSync('git', ['-C', worktree, 'checkout', '--detach', '--force', '-q', commit], { stdio: 'ignore' });
  execFileSync('git', ['-C', worktree, 'clean', '-fdxq'], { stdio: 'ignore' });
}

function filesOfHits(
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

function fuse(...lists: string[][]): string[] {
  const score = new Map<string, number>();
  for (const list of lists) list.forEach((f, i) => score.set(f, (score.get(f) ?? 0) + 1 / (RRF_K + i + 1)));
  return [...score].sort((a, b) => b[1] - a[1]).map(([f]) => f);
}

async function rankRepo(clones: string, repo: string, instances: Instance[], log: (s: string) => void) {
  const clone = cloneOf(clones, repo)!;
  const worktree = path.join(clones, '.engram-loc', repo.split('/')[1]!);
  const work = mkdtempSync(path.join(os.tmpdir(), 'engram-locbench-'));
  const runs: Record<Ranker, RankedRun[]> = {
    bm25: [],
    'engram-recall': [],
    'engram-map': [],
    'engram-fused': [],
  };
  checkout(clone, worktree, instances[0]!.base_commit);
  const host = await EngineDispatcher.open({
    dbPath: path.join(work, 'memory.db'),
    sqlWasmPath: require.resolve('sql.js/dist/sql-wasm.wasm'),
    logger: silentLogger,
    clock: Date.now,
    embedding: null,
    // No snapshot mid-run: a run writes far past the 16 MiB journal limit, and a snapshot still in
    // flight when the host closes fails in Journal.compact with EBADF (seen at the end of xarray).
    snapshot: { idleMs: 600_000, maxJournalBytes: 1 << 30 },
    code: { root: worktree, grammarsDirectory: path.join(repoRoot, 'grammars'), runner: 'inline' },
  });
  let request = 0;
  const call = (method: string, params: Record<string, unknown>) =>
    host.dispatch(method, params, { requestId: `loc-${++request}`, client: 'bench' });
  try {
    // Sorted by commit so instances at one commit share a scan.
    for (const instance of [...instances].sort((a, b) => a.base_commit.localeCompare(b.base_commit))) {
      checkout(clone, worktree, instance.base_commit);
      const started = performance.now();
      await call('scan', { tokens: false });
      const scanMs = performance.now() - started;
      const query = instance.problem_statement;
      const gold = goldFiles(instance);
      const recalled = (await call('recall', { query, k: 100, layer: 'codebase' })) as {
        hits: Parameters<typeof filesOfHits>[0];
      };
      const map = (await call('map', { query, budget: 100_000 })) as { files: Array<{ path: string }> };
      const recallFiles = filesOfHits(recalled.hits);
      const mapFiles = map.files.map((f) => f.path);
      const ranked: Record<Ranker, string[]> = {
        bm25: Bm25Files.fromWorkTree(worktree).search(query, 100),
        'engram-recall': recallFiles,
        'engram-map': mapFiles,
        'engram-fused': fuse(recallFiles, mapFiles),
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
  return runs;
}

function firstHit(ranked: string[], gold: string[]): string {
  const index = ranked.findIndex((f) => gold.includes(f));
  return index < 0 ? '-' : String(index + 1);
}

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
    console.error('usage: localizationBench INSTANCES.json CLONES_DIR [--json] [--limit N] [--repo NAME]');
    process.exit(1);
  }
  const limit = Number(option('--limit') ?? Infinity);
  const only = option('--repo');
  const all = JSON.parse(readFileSync(instancesFile, 'utf8')) as Instance[];
  const byRepo = new Map<string, Instance[]>();
  for (const instance of all) {
    if (!cloneOf(clones, instance.repo) || (only && !instance.repo.endsWith(`/${only}`))) continue;
    const list = byRepo.get(instance.repo) ?? [];
    if (list.length < limit) list.push(instance);
    byRepo.set(instance.repo, list);
  }
  const log = (line: string) => (json ? console.error(line) : console.log(line));
  const runs: Record<Ranker, RankedRun[]> = {
    bm25: [],
    'engram-recall': [],
    'engram-map': [],
    'engram-fused': [],
  };
  for (const [repo, instances] of byRepo) {
    log(`${repo}: ${instances.length} instances`);
    const repoRuns = await rankRepo(path.resolve(clones), repo, instances, log);
    for (const ranker of RANKERS) runs[ranker].push(...repoRuns[ranker]);
  }
  const report = {
    date: new Date().toISOString().slice(0, 10),
    machine: machine(),
    instances: runs.bm25.length,
    repositories: Object.fromEntries([...byRepo].map(([repo, list]) => [repo, list.length])),
    rankers: Object.fromEntries(RANKERS.map((r) => [r, hitRates(runs[r])])),
  };
  if (json) {
    console.log(JSON.stringify(report, null, 2));
    return;
  }
  console.log(`\n${report.instances} instances, ${report.date}, ${report.machine}`);
  console.log('ranker          hit@1  hit@5  hit@10  MRR');
  for (const ranker of RANKERS) {
    const h = report.rankers[ranker]!;
    console.log(
      `${ranker.padEnd(15)} ${[h.hit1, h.hit5, h.hit10, h.mrr].map((v) => round(v, 3).toFixed(3).padStart(6)).join(' ')}`,
    );
  }
}

void main();
