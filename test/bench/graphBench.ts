/**
 * npm run bench:graph — what the Graph panel costs on a large store: building the graph payload in
 * the engine (graphOverview, graphNeighbourhood) and drawing it in a real Chromium (graphology +
 * sigma + forceatlas2, the webview bundle from dist/). A benchmark, not a test: it prints figures.
 * Baseline, in the same run: the engine's existing `entities` and `related` reads over the same
 * store (what a panel would have had to call without these methods).
 * Usage: node --import tsx test/bench/graphBench.ts [--memories N] [--runs N] [--json]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { EngineDispatcher } from '../../engine/api/engineDispatcher';
import type { MethodName, MethodResult } from '../../engine/api/methods';
import { silentLogger } from '../../engine/host';
import { launchChromium } from '../vscode/support/browser';
import { openGraphPage } from '../webview/graphPage';
import { machine, median, ms, round } from './stats';
import { syntheticMemories } from './syntheticMemories';
import { writtenOrReported } from './batchRejections';

const argValue = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const MEMORIES = argValue('--memories', 10_000);
const RUNS = argValue('--runs', 9);
const RENDER_RUNS = Math.max(3, Math.ceil(RUNS / 3));
const json = process.argv.includes('--json');
const sqlWasmPath = createRequire(__filename).resolve('sql.js/dist/sql-wasm.wasm');
const root = mkdtempSync(path.join(os.tmpdir(), 'engram-bench-graph-'));
let seq = 0;

async function main(): Promise<void> {
  const host = await EngineDispatcher.open({
    dbPath: path.join(root, 'memory.db'),
    sqlWasmPath,
    logger: silentLogger,
    clock: Date.now,
    snapshot: { idleMs: 3_600_000, maxJournalBytes: 512 * 1024 * 1024 },
  });
  const call = async <M extends MethodName>(method: M, params: Record<string, unknown> = {}) =>
    (await host.dispatch(method, params, {
      requestId: `bench-${++seq}`,
      client: 'bench',
    })) as MethodResult<M>;

  const writeStart = process.hrtime.bigint();
  const texts = syntheticMemories(MEMORIES, 7);
  for (let i = 0; i < texts.length; i += 500)
    writtenOrReported(
      await call('rememberMany', { memories: texts.slice(i, i + 500).map((content) => ({ content })) }),
      'graph corpus',
    );
  const writeSeconds = round(ms(writeStart) / 1000, 1);
  const stats = await call('stats');

  const top = (await call('entities', { limit: 1 }))[0]!;
  const someMemory = (await call('list', { limit: 1 })).items[0]!.id;
  const timed = async (label: string, method: MethodName, params: Record<string, unknown>) => {
    const times: number[] = [];
    let bytes = 0;
    let nodes = 0;
    for (let r = 0; r < RUNS; r++) {
      const start = process.hrtime.bigint();
      const result = await call(method, params);
      times.push(ms(start));
      bytes = JSON.stringify(result).length;
      nodes = (result as { nodes?: unknown[] }).nodes?.length ?? 0;
    }
    return { label, medianMs: round(median(times), 1), nodes, kB: round(bytes / 1024, 0) };
  };
  const engine = [
    await timed('baseline: entities (top 50)', 'entities', { limit: 50 }),
    await timed('baseline: related, 2 hops, 400', 'related', { entity: top.name, hops: 2, limit: 400 }),
    await timed('graphOverview 400', 'graphOverview', { limit: 400 }),
    await timed('graphOverview 2000', 'graphOverview', { limit: 2000 }),
    await timed('graphNeighbourhood top entity, 1 hop, 400', 'graphNeighbourhood', {
      seeds: [{ entityId: top.id }],
      hops: 1,
      limit: 400,
    }),
    await timed('graphNeighbourhood top entity, 2 hops, 2000', 'graphNeighbourhood', {
      seeds: [{ entityId: top.id }],
      hops: 2,
      limit: 2000,
    }),
    await timed('graphNeighbourhood a memory, 3 hops, 400', 'graphNeighbourhood', {
      seeds: [{ memory: someMemory }],
      hops: 3,
      limit: 400,
    }),
  ];

  // Drawing: the real webview bundle in Chromium, fed the overview at two sizes.
  const browser = await launchChromium(process.env['ENGRAM_CHROMIUM'] ?? '/usr/bin/chromium');
  const render: Array<{
    label: string;
    nodes: number;
    firstDrawMs: number;
    settledMs: number;
    iterations: number;
    msPerIteration: number;
  }> = [];
  for (const limit of [400, 2000]) {
    const first: number[] = [];
    const settled: number[] = [];
    let nodes = 0;
    let iterations = 0;
    const perIteration: number[] = [];
    for (let r = 0; r < RENDER_RUNS; r++) {
      const engineForPage = {
        call: <M extends MethodName>(method: M, params?: Record<string, unknown>) =>
          call(method, { ...params, limit }),
      };
      const { page, host: standIn } = await openGraphPage(browser, engineForPage, {
        width: 1400,
        height: 900,
      });
      await standIn.until(
        'the layout to settle',
        () => page.evaluate(() => document.body.dataset['layout'] === 'done'),
        120_000,
      );
      const data = await page.evaluate(() => ({ ...document.body.dataset }));
      nodes = Number(data['nodes']);
      iterations = Number(data['layoutIterations']);
      perIteration.push(Number(data['msPerIteration']));
      first.push(Number(data['buildMs']));
      settled.push(Number(data['layoutMs']));
      await page.close();
    }
    render.push({
      label: `overview ${limit}`,
      nodes,
      firstDrawMs: round(median(first), 1),
      settledMs: round(median(settled), 0),
      iterations,
      msPerIteration: round(median(perIteration), 1),
    });
  }
  await browser.close();
  await host.close();
  rmSync(root, { recursive: true, force: true });

  const report = {
    date: new Date().toISOString().slice(0, 10),
    machine: machine(),
    memories: MEMORIES,
    store: { memories: stats.memories, entities: stats.entities, relations: stats.relations },
    writeSeconds,
    runs: RUNS,
    engine,
    render,
  };
  if (json) {
    console.log(JSON.stringify(report, null, 2));
    return;
  }
  console.log(
    `graph bench: ${stats.memories} memories, ${stats.entities} entities, ${stats.relations} relations (written in ${writeSeconds} s), ${report.machine}`,
  );
  console.log(`engine, median of ${RUNS}:`);
  for (const e of engine)
    console.log(`  ${e.label.padEnd(48)} ${String(e.medianMs).padStart(7)} ms  ${e.nodes} nodes  ${e.kB} kB`);
  console.log(
    `render in Chromium (payload to graph and first frame; forceatlas2 from start to settled, redraws included), median of ${RENDER_RUNS}:`,
  );
  for (const r of render)
    console.log(
      `  ${r.label.padEnd(20)} ${r.nodes} nodes  first draw ${r.firstDrawMs} ms  layout ${r.settledMs} ms (${r.iterations} forceatlas2 iterations, ${r.msPerIteration} ms each)`,
    );
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
