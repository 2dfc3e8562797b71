/**
 * Calibrates the skill gate's confidence threshold (engine/retrieval/skillGate.ts) on data none of
 * us wrote: CoSQA's dev queries are real web queries for a task ("python check file is readonly")
 * and its corpus is 6,267 Python functions, each a procedure. Every function is stored as a
 * procedural memory except the gold functions with an odd id: a query whose gold is stored should
 * get it (inject, gold among the skills), a query whose gold was withheld should get nothing (skip).
 * Known noise: CoSQA labels one gold per query, so another stored function may answer a
 * "withheld" query too; such an injection counts as wrong here.
 *
 * Split: the first 250 queries tune the threshold (the decision's accuracy), the last 250 only
 * report. References in the same run: threshold 0 (selection without calibration) and never injecting.
 *
 * Usage: npm run bench:skills [-- --cosqa DIR] [--json]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EngineDispatcher } from '../../engine/api/engineDispatcher';
import { silentLogger } from '../../engine/host';
import type { RememberManyResult } from '../../engine/memory/types';
import type { SkillAnswer } from '../../engine/retrieval/skillGate';
import { DEFAULT_SKILL_THRESHOLD } from '../../engine/retrieval/skillGate';
import { loadCosqa } from './recall/datasets';
import { median, round, runStamp } from './stats';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
};
const dir = flag('--cosqa') ?? path.resolve(__dirname, '../../../shared/bench/cosqa');
const sqlWasmPath = require.resolve('sql.js/dist/sql-wasm.wasm');
const STORED = (goldId: string) => Number(goldId) % 2 === 0;
const THRESHOLDS = Array.from({ length: 21 }, (_, i) => round(i * 0.05, 2));

interface Outcome {
  stored: boolean;
  gold: string;
  considered: Array<{ memoryId: string; confidence: number }>;
}

interface Halves {
  accuracy: number;
  injectPrecision: number;
  storedRecall: number;
  withheldSkipped: number;
}

/** The decisions at threshold `t`: right when the gold is injected (stored) or nothing is (withheld). */
function score(outcomes: Outcome[], docOf: Map<string, string>, t: number): Halves {
  let right = 0;
  let injected = 0;
  let injectedGold = 0;
  let stored = 0;
  let storedHit = 0;
  let withheld = 0;
  let withheldSkip = 0;
  for (const o of outcomes) {
    const kept = o.considered.filter((c) => c.confidence >= t).map((c) => docOf.get(c.memoryId));
    const hasGold = kept.includes(o.gold);
    if (kept.length > 0) injected++;
    if (hasGold) injectedGold++;
    if (o.stored) {
      stored++;
      if (hasGold) storedHit++;
      if (hasGold) right++;
    } else {
      withheld++;
      if (kept.length === 0) withheldSkip++;
      if (kept.length === 0) right++;
    }
  }
  const share = (a: number, b: number) => (b === 0 ? 0 : round(a / b, 3));
  return {
    accuracy: share(right, outcomes.length),
    injectPrecision: share(injectedGold, injected),
    storedRecall: share(storedHit, stored),
    withheldSkipped: share(withheldSkip, withheld),
  };
}

async function main(): Promise<void> {
  const corpus = loadCosqa(
    path.join(dir, 'cosqa-retrieval-dev-500.json'),
    path.join(dir, 'code_idx_map.txt'),
  );
  const golds = new Set(corpus.queries.flatMap((q) => q.gold));
  const docs = corpus.docs.filter((d) => !golds.has(d.id) || STORED(d.id));
  const root = mkdtempSync(path.join(os.tmpdir(), 'engram-skill-bench-'));
  const host = await EngineDispatcher.open({
    dbPath: path.join(root, 'skills.db'),
    sqlWasmPath,
    logger: silentLogger,
    clock: () => Date.now(),
    snapshot: { idleMs: 3_600_000, maxJournalBytes: 1 << 30 },
    embedding: null,
  });
  let seq = 0;
  const call = <T>(method: string, params: Record<string, unknown>) =>
    host.dispatch(method, params, { requestId: `sk-${++seq}`, client: 'bench' }) as Promise<T>;
  try {
    const docOf = new Map<string, string>();
    for (let i = 0; i < docs.length; i += 500) {
      const batch = docs.slice(i, i + 500);
      const results = await call<RememberManyResult[]>('rememberMany', {
        memories: batch.map((d) => ({
          content: d.text,
          layer: 'procedural',
          kind: 'procedure',
          dedupe: false,
        })),
      });
      results.forEach((r, j) => {
        if (r.outcome !== 'rejected') docOf.set(r.memory.id, batch[j]!.id);
      });
    }
    const outcomes: Outcome[] = [];
    const times: number[] = [];
    const recallTimes: number[] = [];
    for (const q of corpus.queries) {
      const started = performance.now();
      // Threshold 0 and a read-only call: every selected procedure with its confidence, no accesses.
      const answer = await call<SkillAnswer>('skills', { query: q.text, threshold: 0, readOnly: true });
      times.push(performance.now() - started);
      outcomes.push({ stored: STORED(q.gold[0]!), gold: q.gold[0]!, considered: answer.considered });
      // The reference time: a recall of the same task over the same store, in the same run.
      const recallStarted = performance.now();
      await call('recall', { query: q.text, k: 10, readOnly: true });
      recallTimes.push(performance.now() - recallStarted);
    }
    const tune = outcomes.slice(0, 250);
    const report = outcomes.slice(250);
    const sweep = THRESHOLDS.map((t) => ({ t, tune: score(tune, docOf, t) }));
    const best = sweep.reduce((a, b) => (b.tune.accuracy > a.tune.accuracy ? b : a));
    const at = (t: number) => ({
      threshold: t,
      tune: score(tune, docOf, t),
      report: score(report, docOf, t),
    });
    const summary = {
      ...runStamp(),
      procedures: docOf.size,
      queries: { tune: tune.length, report: report.length },
      storedShare: {
        tune: round(tune.filter((o) => o.stored).length / tune.length, 3),
        report: round(report.filter((o) => o.stored).length / report.length, 3),
      },
      tunedThreshold: best.t,
      shipped: at(DEFAULT_SKILL_THRESHOLD),
      tuned: at(best.t),
      reference: at(0),
      never: at(1.01),
      medianMs: { skills: round(median(times), 1), recall: round(median(recallTimes), 1) },
      sweep,
    };
    if (args.includes('--json')) console.log(JSON.stringify(summary, null, 2));
    else {
      const line = (name: string, r: ReturnType<typeof at>) =>
        `${name.padEnd(10)} t=${r.threshold.toFixed(2)}  tune acc ${r.tune.accuracy} prec ${r.tune.injectPrecision} recall ${r.tune.storedRecall} skip ${r.tune.withheldSkipped} | report acc ${r.report.accuracy} prec ${r.report.injectPrecision} recall ${r.report.storedRecall} skip ${r.report.withheldSkipped}`;
      console.log(`${summary.date}  ${summary.machine}  load ${summary.load}`);
      console.log(
        `${summary.procedures} procedures; median call: skills ${summary.medianMs.skills} ms, recall k=10 ${summary.medianMs.recall} ms`,
      );
      console.log(line('shipped', summary.shipped));
      console.log(line('tuned', summary.tuned));
      console.log(line('reference', summary.reference));
      console.log(line('never', summary.never));
      for (const s of sweep)
        console.log(
          `  t=${s.t.toFixed(2)} tune acc ${s.tune.accuracy} prec ${s.tune.injectPrecision} recall ${s.tune.storedRecall} skip ${s.tune.withheldSkipped}`,
        );
    }
  } finally {
    await host.close();
    rmSync(root, { recursive: true, force: true });
  }
}

void main();
