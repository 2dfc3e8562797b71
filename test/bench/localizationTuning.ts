/**
 * Tunes `locate` on the tuning half of the localisation bench (localizationSplit.ts) only: each
 * tuning instance is extracted and scanned once, then every variant below is ranked over the same
 * indexes and printed with hit@1/@5/@10 and MRR. Reporting-half repositories are refused, so the
 * figures the docs quote stay unseen while tuning.
 *
 * Usage: node --import tsx test/bench/localizationTuning.ts INSTANCES.json CLONES_DIR
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { codeSearchIndexOf } from '../../engine/code/search/codeSearchIndex';
import type { CodeSearchIndex } from '../../engine/code/search/codeSearchIndex';
import { searchCode } from '../../engine/code/search/codeSearch';
import { DEFAULT_LOCATE, locate } from '../../engine/code/search/locate';
import type { LocateParams } from '../../engine/code/search/locate';
import { Bm25Files } from './bm25Files';
import { extractTree, gitDirOf, openScanHost, trackedFiles } from './localizationCheckout';
import { filesOfRecallHits, hitTable } from './localizationMetrics';
import { CHANNEL_WEIGHTS } from '../../engine/retrieval/channelWeights';
import type { RankedRun } from './localizationMetrics';
import { splitRepositories } from './localizationSplit';

interface Instance {
  instance_id: string;
  repo: string;
  base_commit: string;
  problem_statement: string;
  gold_files: string[];
}

interface Prepared {
  id: string;
  query: string;
  gold: string[];
  index: CodeSearchIndex;
  recall: string[];
  map: string[];
  /** recall over the codebase layer per weight of its code channel (0: without it). */
  recallByCodeWeight: Map<number, string[]>;
  baseline: string[];
}

/** Weights of recall's code channel for where-in-code questions to compare (0 leaves it out). */
const RECALL_CODE_WEIGHTS = [0, 1, 1.5, 2, 3];

type Variant = (base: LocateParams) => LocateParams;

const code =
  (patch: (c: LocateParams['code']) => LocateParams['code']): Variant =>
  (p) => ({
    ...p,
    code: patch(structuredClone(p.code)),
  });

/** The variants tried; each is a change of DEFAULT_LOCATE. */
const VARIANTS: Record<string, Variant> = {
  default: (p) => p,
  'no role priors': code((c) => ({
    ...c,
    priors: { ...c.priors, test: 1, docs: 1, example: 1, fixture: 1, benchmark: 1 },
    unparsedPrior: 1,
  })),
  'query tf once': code((c) => ({ ...c, queryTfPower: 0 })),
  'symbols 0': code((c) => ({ ...c, symbolShare: 0 })),
  'symbols .5': code((c) => ({ ...c, symbolShare: 0.5 })),
  'symbols without body': code((c) => ({
    ...c,
    symbols: { ...c.symbols, weight: { ...c.symbols.weight, body: 0 } },
  })),
  'k1 2': code((c) => ({ ...c, files: { ...c.files, k1: 2 }, symbols: { ...c.symbols, k1: 2 } })),
  'recall .15': (p) => ({ ...p, weights: { ...p.weights, recall: 0.15 } }),
  'recall .3': (p) => ({ ...p, weights: { ...p.weights, recall: 0.3 } }),
  'map .2': (p) => ({ ...p, weights: { ...p.weights, map: 0.2 } }),
};

async function prepare(instances: Instance[], clones: string): Promise<Prepared[]> {
  const prepared: Prepared[] = [];
  const byRepo = new Map<string, Instance[]>();
  for (const instance of instances)
    byRepo.set(instance.repo, [...(byRepo.get(instance.repo) ?? []), instance]);
  for (const [repo, list] of byRepo) {
    const gitDir = gitDirOf(clones, repo);
    if (!gitDir) continue;
    const work = mkdtempSync(path.join(os.tmpdir(), 'engram-loctune-'));
    const tree = path.join(work, repo.split('/')[1]!);
    const host = await openScanHost(work, tree);
    try {
      for (const instance of [...list].sort((a, b) => a.base_commit.localeCompare(b.base_commit))) {
        extractTree(gitDir, tree, instance.base_commit);
        await host.dispatch('scan', { tokens: false }, { requestId: instance.instance_id, client: 'tune' });
        const { store, graph, entityWeights } = host.engine;
        const sources = { store, graph, entityWeights, root: tree };
        const recalled = await locate(sources, {
          query: instance.problem_statement,
          limit: 100,
          channels: ['recall'],
        });
        const mapped = await locate(sources, {
          query: instance.problem_statement,
          limit: 100,
          channels: ['map'],
        });
        const recallByCodeWeight = new Map<number, string[]>();
        const shipped = CHANNEL_WEIGHTS['where-in-code'].code;
        for (const weight of RECALL_CODE_WEIGHTS) {
          CHANNEL_WEIGHTS['where-in-code'].code = weight;
          const result = (await host.dispatch(
            'recall',
            { query: instance.problem_statement.slice(0, 4000), k: 100, layer: 'codebase', readOnly: true },
            { requestId: `${instance.instance_id}-${weight}`, client: 'tune' },
          )) as { hits: Parameters<typeof filesOfRecallHits>[0] };
          recallByCodeWeight.set(weight, filesOfRecallHits(result.hits));
        }
        CHANNEL_WEIGHTS['where-in-code'].code = shipped;
        prepared.push({
          recallByCodeWeight,
          id: instance.instance_id,
          query: instance.problem_statement,
          gold: instance.gold_files,
          // A fresh object per instance: the index cache is per owner and version.
          index: host.engine.store.read((r) => codeSearchIndexOf({}, r, tree)),
          recall: recalled.files.map((f) => f.path),
          map: mapped.files.map((f) => f.path),
          baseline: Bm25Files.fromFiles(tree, trackedFiles(gitDir, instance.base_commit), 'code').search(
            instance.problem_statement,
            100,
          ),
        });
        console.error(`prepared ${instance.instance_id}`);
      }
    } finally {
      await host.close();
      rmSync(work, { recursive: true, force: true });
    }
  }
  return prepared;
}

function fuse(p: LocateParams, code: string[], recall: string[], map: string[]): string[] {
  const score = new Map<string, number>();
  const add = (list: string[], w: number) =>
    list.forEach((f, i) => score.set(f, (score.get(f) ?? 0) + w / (p.rrfK + i + 1)));
  add(code, p.weights.code);
  if (p.weights.recall > 0) add(recall, p.weights.recall);
  if (p.weights.map > 0) add(map, p.weights.map);
  return [...score].sort((a, b) => b[1] - a[1]).map(([f]) => f);
}

async function main(): Promise<void> {
  const [instancesFile, clones] = process.argv.slice(2);
  if (!instancesFile || !clones) throw new Error('usage: localizationTuning INSTANCES.json CLONES_DIR');
  const all = JSON.parse(readFileSync(instancesFile, 'utf8')) as Instance[];
  const halves = splitRepositories(all);
  const tuning = all.filter((i) => halves.get(i.repo) === 'tuning');
  const prepared = await prepare(tuning, clones);
  const rows = new Map<string, RankedRun[]>();
  rows.set(
    'bm25-code',
    prepared.map((p) => ({ id: p.id, gold: p.gold, ranked: p.baseline })),
  );
  rows.set(
    'recall',
    prepared.map((p) => ({ id: p.id, gold: p.gold, ranked: p.recall })),
  );
  for (const [name, variant] of Object.entries(VARIANTS)) {
    const params = variant(DEFAULT_LOCATE);
    const codeRuns: RankedRun[] = [];
    const fusedRuns: RankedRun[] = [];
    for (const p of prepared) {
      const code = searchCode(p.index, p.query, 100, params.code).map((h) => h.path);
      codeRuns.push({ id: p.id, gold: p.gold, ranked: code });
      fusedRuns.push({ id: p.id, gold: p.gold, ranked: fuse(params, code, p.recall, p.map) });
    }
    rows.set(`${name}: code`, codeRuns);
    rows.set(`${name}: fused`, fusedRuns);
  }
  for (const weight of RECALL_CODE_WEIGHTS)
    rows.set(
      `recall, code channel at ${weight}`,
      prepared.map((p) => ({ id: p.id, gold: p.gold, ranked: p.recallByCodeWeight.get(weight)! })),
    );
  console.log(hitTable(`tuning half (${prepared.length})`, rows));
}

void main();
