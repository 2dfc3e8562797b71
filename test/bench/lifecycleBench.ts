/**
 * What the lifecycle does to a long-lived memory (issue 21, section 6): every LoCoMo turn is
 * remembered as an episode at its own time; the questions of one half (even positions, the
 * "development" half) are asked as a user would, which records accesses; then 120 days pass and
 * the lifecycle (promotion, archive) and consolidation run. Reported: active memories and their
 * tokens before and after, and recall@10 of both halves before and after, through the engine's
 * public methods. The summaries' rule (engine/lifecycle/gist.ts) was chosen on the development
 * half; the other half (odd positions) is only reported.
 *
 * Recall after consolidation is reported three ways, because a consolidated memory stands for
 * several turns; a consolidated hit is credited only with the turns whose sentences its text
 * quotes (what the caller reads). "quoted": `detail: false`, consolidated memories only;
 * "default": recall as callers ask it, which opens a consolidated hit onto its members that rank
 * above it (engine/retrieval/drillDown.ts); "drill-down": `detail: true`, every consolidated hit's
 * matching members in its place. The last two count evidence kept in history, reached through the
 * consolidated memory's provenance. "before" is recall as callers ask it.
 *
 * `--misses` adds to each conversation the development questions consolidation lost and where their
 * turns went (lifecycleMisses.ts); the report half is never listed.
 *
 * LongMemEval (lifecycleLongMemEval.ts): the oracle's sessions turn by turn in time order, the
 * lifecycle run weekly on the simulated clock, recall_any@5 / recall_all@5 of both halves.
 *
 * Usage: npm run bench:lifecycle [-- --locomo FILE] [--longmemeval FILE] [--skip-locomo]
 *   [--skip-longmemeval] [--json] [--misses] [--sample N (LongMemEval: N development questions only)]
 *   [--lme-only before|after]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ConsolidationCluster } from '../../engine/lifecycle/consolidation';
import type { RememberManyResult } from '../../engine/memory/types';
import type { RecallResult } from '../../engine/retrieval/recall';
import { activeSize, cardLines, creditedDocs, openBenchHost } from './lifecycleMeasures';
import type { CardLines } from './lifecycleMeasures';
import { longMemEvalLines, runLongMemEval } from './lifecycleLongMemEval';
import type { LmeRun } from './lifecycleLongMemEval';
import { lostQuestions } from './lifecycleMisses';
import type { Lost } from './lifecycleMisses';
import { loadLocomo } from './recall/datasets';
import type { BenchCorpus, BenchQuery } from './recall/datasets';
import { recallAt } from './recall/metrics';
import { round, runStamp } from './stats';

const DAY = 24 * 60 * 60 * 1000;
const args = process.argv.slice(2);
const flag = (name: string) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
};
const shared = path.resolve(__dirname, '../../../shared/bench');

/** Recall@10 of one half: before, after (detail false, default, true). */
interface HalfRecall {
  before: number;
  quoted: number;
  default: number;
  drillDown: number;
  questions: number;
}

interface Run {
  conversation: string;
  memories: { before: number; after: number };
  tokens: { before: number; after: number };
  /** Of the tokens, those of peer cards (lifecycle runs write them before and after). */
  cardTokens: { before: number; after: number };
  development: HalfRecall;
  report: HalfRecall;
  promoted: number;
  archived: number;
  consolidated: { relevant: number; faded: number; members: number };
  /** CPU per recall as callers ask it (ms, this process: the engine runs in it), both halves. */
  cpuPerRecall: { before: number; after: number };
  /** With `--misses`: the development questions consolidation lost, and where their turns went. */
  lost?: Lost[];
}

async function runConversation(corpus: BenchCorpus, root: string): Promise<Run> {
  let now = Math.min(...corpus.docs.map((d) => d.time ?? Date.now()));
  const { host, call } = await openBenchHost(path.join(root, `${corpus.name}.db`), () => now, 'lc');
  const docOf = new Map<string, string[]>();
  const textOf = new Map(corpus.docs.map((d) => [d.id, d.text]));
  for (let i = 0; i < corpus.docs.length; i += 500) {
    const batch = corpus.docs.slice(i, i + 500);
    const results = await call<RememberManyResult[]>('rememberMany', {
      memories: batch.map((d) => ({ content: d.text, validFrom: d.time, layer: 'episodic', dedupe: false })),
    });
    results.forEach((r, j) => {
      if (r.outcome !== 'rejected') docOf.set(r.memory.id, [batch[j]!.id]);
    });
  }
  now = Math.max(...corpus.docs.map((d) => d.time ?? 0)) + DAY;
  const development = corpus.queries.filter((_, i) => i % 2 === 0);
  const report = corpus.queries.filter((_, i) => i % 2 === 1);
  // CPU of the recalls asked as callers ask them (no `detail`), before and after consolidation.
  const cpu = { micros: 0, recalls: 0 };
  // The peer cards' lines as they stand when a half is scored (before, then after consolidation).
  let cards: CardLines = new Map();
  const score = async (
    queries: BenchQuery[],
    detail: boolean | undefined,
    keep?: Map<string, RecallResult>,
  ) => {
    let sum = 0;
    for (const q of queries) {
      const asked = { query: q.text, k: 10, readOnly: true, ...(detail === undefined ? {} : { detail }) };
      const started = process.cpuUsage();
      const result = await call<RecallResult>('recall', asked);
      keep?.set(q.text, result);
      const { hits } = result;
      if (detail === undefined) {
        const used = process.cpuUsage(started);
        cpu.micros += used.user + used.system;
        cpu.recalls++;
      }
      const ranked = [...new Set(hits.flatMap((h) => creditedDocs(h.memory.id, q.text, docOf, cards)))];
      sum += recallAt(ranked, q.gold, 10);
    }
    return queries.length ? round(sum / queries.length, 3) : 0;
  };
  // A user asks the development questions (their recalls are accesses), over the weeks after.
  for (const q of development) {
    await call('recall', { query: q.text, k: 10 });
    now += DAY / 4;
  }
  await call('remember', { content: 'flush the read events', layer: 'working' });
  // Hosts run the lifecycle every 15 minutes: peer cards exist before, as after.
  await call('lifecycle', { dryRun: false });
  cards = cardLines(host, docOf, textOf);
  const beforeCards = cards;
  const beforeDocOf = new Map(docOf);
  const beforeHits = new Map<string, RecallResult>();
  const before = {
    ...activeSize(host),
    development: await score(development, undefined, beforeHits),
    report: await score(report, undefined),
    cpuPerRecall: cpuPerRecall(cpu),
  };
  now += 120 * DAY;
  const lifecycle = await call<{ promoted: unknown[]; archived: unknown[] }>('lifecycle', { dryRun: false });
  const consolidation = await call<{ clusters: ConsolidationCluster[]; created: string[] }>('consolidate', {
    dryRun: false,
  });
  // A consolidated memory is credited with the turns it quotes, in its text's order.
  consolidation.created.forEach((id, i) =>
    docOf.set(
      id,
      consolidation.clusters[i]!.quoted.flatMap((m) => docOf.get(m) ?? []),
    ),
  );
  // The next timed run, as a host makes it: the peer cards follow the consolidated memories.
  await call('lifecycle', { dryRun: false });
  cards = cardLines(host, docOf, textOf);
  const afterHits = new Map<string, RecallResult>();
  const half = async (
    queries: BenchQuery[],
    beforeRecall: number,
    keep?: Map<string, RecallResult>,
  ): Promise<HalfRecall> => ({
    before: beforeRecall,
    quoted: await score(queries, false),
    default: await score(queries, undefined, keep),
    drillDown: await score(queries, true),
    questions: queries.length,
  });
  const after = activeSize(host);
  const run: Run = {
    conversation: corpus.name,
    memories: { before: before.memories, after: after.memories },
    tokens: { before: before.tokens, after: after.tokens },
    cardTokens: { before: before.cardTokens, after: after.cardTokens },
    development: await half(development, before.development, afterHits),
    report: await half(report, before.report),
    promoted: lifecycle.promoted.length,
    archived: lifecycle.archived.length,
    cpuPerRecall: { before: before.cpuPerRecall, after: cpuPerRecall(cpu) },
    consolidated: {
      relevant: consolidation.clusters.filter((c) => c.reason === 'relevant').length,
      faded: consolidation.clusters.filter((c) => c.reason === 'faded').length,
      members: consolidation.clusters.reduce((sum, c) => sum + c.members.length, 0),
    },
  };
  if (args.includes('--misses')) {
    const quotedBy = new Map(
      consolidation.created.map((id, i) => [id, new Set(consolidation.clusters[i]!.quoted)]),
    );
    run.lost = await lostQuestions(
      host,
      call,
      development,
      beforeHits,
      afterHits,
      docOf,
      beforeDocOf,
      quotedBy,
      { before: beforeCards, after: cards },
    );
  }
  await host.close();
  return run;
}

/** Milliseconds of CPU per recall since the last call, then starts counting again. */
function cpuPerRecall(cpu: { micros: number; recalls: number }): number {
  const ms = round(cpu.micros / 1000 / Math.max(1, cpu.recalls), 2);
  cpu.micros = 0;
  cpu.recalls = 0;
  return ms;
}

/** `--sample N`: LongMemEval on N development questions only (lifecycleLongMemEval.ts). */
function sampleSize(): number | undefined {
  const value = flag('--sample');
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`--sample: expected a whole number of questions; got "${value}"`);
  return n;
}

/** `--lme-only before|after`: LongMemEval builds only that memory (lifecycleLongMemEval.ts). */
function onlyBuild(): 'before' | 'after' | undefined {
  const value = flag('--lme-only');
  if (value === undefined || value === 'before' || value === 'after') return value;
  throw new Error(`--lme-only: expected before or after; got "${value}"`);
}

async function main(): Promise<void> {
  const file = flag('--locomo') ?? path.join(shared, 'locomo/locomo-dev5.json');
  const root = mkdtempSync(path.join(os.tmpdir(), 'engram-lifecycle-bench-'));
  try {
    const runs: Run[] = [];
    if (!args.includes('--skip-locomo'))
      for (const corpus of loadLocomo(file)) runs.push(await runConversation(corpus, root));
    const longmemeval: LmeRun | undefined = args.includes('--skip-longmemeval')
      ? undefined
      : await runLongMemEval(
          flag('--longmemeval') ?? path.join(shared, 'longmemeval/longmemeval_oracle.json.gz'),
          root,
          sampleSize(),
          onlyBuild(),
        );
    const total = (pick: (r: Run) => number) => runs.reduce((s, r) => s + pick(r), 0);
    const weighted = (pick: (r: Run) => HalfRecall): HalfRecall => {
      const questions = total((r) => pick(r).questions);
      const mean = (of: (h: HalfRecall) => number) =>
        round(total((r) => of(pick(r)) * pick(r).questions) / questions, 3);
      return {
        before: mean((h) => h.before),
        quoted: mean((h) => h.quoted),
        default: mean((h) => h.default),
        drillDown: mean((h) => h.drillDown),
        questions,
      };
    };
    const summary = {
      ...runStamp(),
      runs,
      total: {
        memories: { before: total((r) => r.memories.before), after: total((r) => r.memories.after) },
        tokens: { before: total((r) => r.tokens.before), after: total((r) => r.tokens.after) },
        cardTokens: { before: total((r) => r.cardTokens.before), after: total((r) => r.cardTokens.after) },
        cpuPerRecall: {
          before: round(total((r) => r.cpuPerRecall.before) / runs.length, 2),
          after: round(total((r) => r.cpuPerRecall.after) / runs.length, 2),
        },
        development: weighted((r) => r.development),
        report: weighted((r) => r.report),
      },
      longmemeval,
    };
    if (args.includes('--json')) {
      process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
      return;
    }
    process.stdout.write(`${summary.date} ${summary.machine}, load ${summary.load}\n`);
    process.stdout.write(
      'recall@10 before -> after: a consolidated memory is credited only with the turns its text quotes; "quoted":\n' +
        'detail false; "default": members that rank above it in its place; "drill-down": detail true, all its matching members\n',
    );
    const halfText = (name: string, h: HalfRecall) =>
      `${name} recall@10 ${h.before} -> quoted ${h.quoted} / default ${h.default} / drill-down ${h.drillDown} (${h.questions} q)`;
    for (const r of runs.length > 0 ? [...runs, { conversation: 'all', ...summary.total }] : []) {
      const extra =
        'consolidated' in r
          ? `; promoted ${r.promoted}, archived ${r.archived}, consolidated ${r.consolidated.members} into ${r.consolidated.faded} faded + ${r.consolidated.relevant} relevant`
          : '';
      process.stdout.write(
        `${r.conversation.padEnd(8)} memories ${r.memories.before} -> ${r.memories.after}, tokens ${r.tokens.before} -> ${r.tokens.after} (${round(r.tokens.before / Math.max(1, r.tokens.after), 2)}x; peer cards ${r.cardTokens.before} -> ${r.cardTokens.after}, without them ${round((r.tokens.before - r.cardTokens.before) / Math.max(1, r.tokens.after - r.cardTokens.after), 2)}x); ${halfText('dev', r.development)}; ${halfText('report', r.report)}; CPU per recall ${r.cpuPerRecall.before} -> ${r.cpuPerRecall.after} ms${extra}\n`,
      );
    }
    if (longmemeval) process.stdout.write(`${longMemEvalLines(longmemeval).join('\n')}\n`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `lifecycleBench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
