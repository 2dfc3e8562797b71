/**
 * Whether two builds return the same top k, id for id and in order, for every question of the
 * retrieval benchmarks: the check a speed-up that must not change results needs (the headline
 * figures hide a swap of two hits, and ties between memories follow their random ids, so two
 * separate bench runs never agree exactly). Each corpus is loaded once, by this checkout's build;
 * each build then answers every question on its own copy of that database, alternating question
 * by question, with the same fixed clock (recency boosts and the access notes that feed PageRank's
 * memory bias evolve alike in both copies).
 *
 * Usage (`npm run build` first, and in the other checkout):
 *   node --import tsx test/bench/recall/sameTopK.ts --against OTHER/dist/engine.js
 *     [--locomo FILE] [--longmemeval FILE] [--cosqa QUERIES CORPUS] [--k 10]
 * Exits 1 when any question's top k differs, listing the first differences.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { EngineDispatcher, HostOptions } from '../../../engine/api/engineDispatcher';
import { silentLogger } from '../../../engine/host';
import type { RecallResult } from '../../../engine/retrieval/recall';
import { loadCosqa, loadLocomo, loadLongMemEval, memoryInputs } from './datasets';
import type { BenchCorpus } from './datasets';

const load = createRequire(__filename);
const sqlWasmPath = load.resolve('sql.js/dist/sql-wasm.wasm');
const args = process.argv.slice(2);
const flag = (name: string, count = 1): string[] | undefined => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args.slice(i + 1, i + 1 + count);
};
/** Every run sees the same time: the boosts' recency and the access notes' decay then match. */
const FIXED_NOW = Date.UTC(2026, 10, 29);
/** The bench's two engine systems without a model: lexical alone, and every channel but dense. */
const SYSTEMS: Array<[string, string[] | undefined]> = [
  ['lexical', ['lexical']],
  ['hybrid (no model)', undefined],
];

type Opener = (options: HostOptions) => Promise<EngineDispatcher>;

function openerOf(enginePath: string): Opener {
  const bundle = load(path.resolve(enginePath)) as { EngineDispatcher?: { open: Opener } };
  if (!bundle.EngineDispatcher) throw new Error(`${enginePath} exports no EngineDispatcher`);
  const Dispatcher = bundle.EngineDispatcher;
  return (options) => Dispatcher.open(options);
}

function hostOptions(dbPath: string): HostOptions {
  return {
    dbPath,
    sqlWasmPath,
    lexicalCopy: 'on-first-search',
    logger: silentLogger,
    clock: () => FIXED_NOW,
    limits: { maxContentChars: 1_000_000, maxContextChars: 4_000_000 },
    snapshot: { idleMs: 3_600_000, maxJournalBytes: 1 << 30 },
    embedding: null,
  };
}

function copyDatabase(from: string, to: string): void {
  for (const suffix of ['', '.journal'])
    if (existsSync(from + suffix)) copyFileSync(from + suffix, to + suffix);
}

interface Difference {
  question: string;
  these: string[];
  those: string[];
}

async function compareCorpus(
  corpus: BenchCorpus,
  layer: string,
  kind: string,
  builds: { here: Opener; there: Opener },
  k: number,
  root: string,
): Promise<Array<{ system: string; questions: number; same: number; differences: Difference[] }>> {
  const base = path.join(root, `${corpus.name}.db`);
  const loader = await builds.here(hostOptions(base));
  for (let i = 0; i < corpus.docs.length; i += 500)
    await loader.dispatch(
      'rememberMany',
      { memories: memoryInputs(corpus.docs.slice(i, i + 500), layer, kind) },
      { requestId: `load-${i}`, client: 'bench' },
    );
  await loader.close();
  const out = [];
  for (const [system, channels] of SYSTEMS) {
    const hosts: EngineDispatcher[] = [];
    for (const [label, open] of [
      ['here', builds.here],
      ['there', builds.there],
    ] as const) {
      const dbPath = `${base}-${label}-${system.replace(/\W+/g, '')}.db`;
      copyDatabase(base, dbPath);
      hosts.push(await open(hostOptions(dbPath)));
    }
    const differences: Difference[] = [];
    let same = 0;
    for (const [i, query] of corpus.queries.entries()) {
      const ids: string[][] = [];
      for (const host of i % 2 === 0 ? hosts : [...hosts].reverse()) {
        const result = (await host.dispatch(
          'recall',
          { query: query.text, k, channels },
          { requestId: `q-${i}`, client: 'bench' },
        )) as RecallResult;
        ids.push(result.hits.map((hit) => hit.memory.id));
      }
      const [these, those] = i % 2 === 0 ? ids : [...ids].reverse();
      if (these!.join() === those!.join()) same++;
      else differences.push({ question: query.id, these: these!, those: those! });
    }
    for (const host of hosts) await host.close();
    out.push({ system, questions: corpus.queries.length, same, differences });
  }
  return out;
}

async function main(): Promise<void> {
  const against = flag('--against')?.[0];
  if (!against) throw new Error('--against OTHER/dist/engine.js is required');
  const k = Number(flag('--k')?.[0] ?? 10);
  const builds = {
    here: openerOf(path.resolve(__dirname, '../../../dist/engine.js')),
    there: openerOf(against),
  };
  const corpora: Array<[BenchCorpus, string, string]> = [];
  const locomo = flag('--locomo')?.[0];
  if (locomo) for (const corpus of loadLocomo(locomo)) corpora.push([corpus, 'episodic', 'interaction']);
  const lme = flag('--longmemeval')?.[0];
  if (lme) corpora.push([loadLongMemEval(lme), 'episodic', 'interaction']);
  const cosqa = flag('--cosqa', 2);
  if (cosqa?.length === 2) corpora.push([loadCosqa(cosqa[0]!, cosqa[1]!), 'codebase', 'code-symbol']);
  if (corpora.length === 0) throw new Error('name at least one of --locomo, --longmemeval, --cosqa');
  const root = mkdtempSync(path.join(os.tmpdir(), 'engram-bench-same-topk-'));
  let differing = 0;
  try {
    for (const [corpus, layer, kind] of corpora)
      for (const row of await compareCorpus(corpus, layer, kind, builds, k, root)) {
        differing += row.differences.length;
        process.stdout.write(
          `${corpus.name.padEnd(22)} ${row.system.padEnd(18)} top ${k} identical in ${row.same} / ${row.questions}\n`,
        );
        for (const d of row.differences.slice(0, 3))
          process.stdout.write(
            `  ${d.question}: this ${d.these.join(' ')}\n    other ${d.those.join(' ')}\n`,
          );
      }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  if (differing > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`sameTopK: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
