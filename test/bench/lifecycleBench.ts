/**
 * What the lifecycle does to a long-lived memory (issue 21, section 6): every LoCoMo turn is
 * remembered as an episode at its own time; the questions of one half (even positions, the
 * "development" half) are asked as a user would, which records accesses; then 120 days pass and
 * the lifecycle (promotion, archive) and consolidation run. Reported: active memories and their
 * tokens before and after, and recall@10 of the other half of the questions (odd positions, only
 * reported) before and after, through the engine's public methods. Nothing here is tuned: the
 * rules are the seeds' defaults.
 *
 * Usage: npm run bench:lifecycle [-- --locomo FILE] [--json]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EngineDispatcher } from '../../engine/api/engineDispatcher';
import { silentLogger } from '../../engine/host';
import type { RememberManyResult } from '../../engine/memory/types';
import type { RecallResult } from '../../engine/retrieval/recall';
import { tokenCount } from '../../engine/retrieval/tokenCount';
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
const sqlWasmPath = require.resolve('sql.js/dist/sql-wasm.wasm');

interface Run {
  conversation: string;
  memories: { before: number; after: number };
  tokens: { before: number; after: number };
  recallAt10: { before: number; after: number };
  reportQuestions: number;
  promoted: number;
  archived: number;
  consolidated: number;
}

async function runConversation(corpus: BenchCorpus, root: string): Promise<Run> {
  let now = Math.min(...corpus.docs.map((d) => d.time ?? Date.now()));
  const host = await EngineDispatcher.open({
    dbPath: path.join(root, `${corpus.name}.db`),
    sqlWasmPath,
    logger: silentLogger,
    clock: () => now,
    snapshot: { idleMs: 3_600_000, maxJournalBytes: 1 << 30 },
    embedding: null,
  });
  let seq = 0;
  const call = <T>(method: string, params: Record<string, unknown>) =>
    host.dispatch(method, params, { requestId: `lc-${++seq}`, client: 'bench' }) as Promise<T>;
  const docOf = new Map<string, string[]>();
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
  const score = async (queries: BenchQuery[]) => {
    let sum = 0;
    for (const q of queries) {
      const { hits } = await call<RecallResult>('recall', { query: q.text, k: 10, readOnly: true });
      const ranked = [...new Set(hits.flatMap((h) => docOf.get(h.memory.id) ?? []))];
      sum += recallAt(ranked, q.gold, 10);
    }
    return queries.length ? sum / queries.length : 0;
  };
  // A user asks the development questions (their recalls are accesses), over the weeks after.
  for (const q of development) {
    await call('recall', { query: q.text, k: 10 });
    now += DAY / 4;
  }
  await call('remember', { content: 'flush the read events', layer: 'working' });
  const before = { ...activeSize(host), recall: await score(report) };
  now += 120 * DAY;
  const lifecycle = await call<{ promoted: unknown[]; archived: unknown[] }>('lifecycle', { dryRun: false });
  const consolidation = await call<{ clusters: Array<{ members: string[] }>; created: string[] }>(
    'consolidate',
    {
      dryRun: false,
    },
  );
  consolidation.created.forEach((id, i) =>
    docOf.set(
      id,
      consolidation.clusters[i]!.members.flatMap((m) => docOf.get(m) ?? []),
    ),
  );
  const after = { ...activeSize(host), recall: await score(report) };
  await host.close();
  return {
    conversation: corpus.name,
    memories: { before: before.memories, after: after.memories },
    tokens: { before: before.tokens, after: after.tokens },
    recallAt10: { before: round(before.recall, 3), after: round(after.recall, 3) },
    reportQuestions: report.length,
    promoted: lifecycle.promoted.length,
    archived: lifecycle.archived.length,
    consolidated: consolidation.created.length,
  };
}

/** Active memories in recall by default, and their tokens (the memory an agent could be given). */
function activeSize(host: EngineDispatcher): { memories: number; tokens: number } {
  const rows = host.store.read((r) =>
    r.all<{ content: string }>(
      "SELECT content FROM memories WHERE superseded_at IS NULL AND status = 'active' AND layer != 'working'",
    ),
  );
  return { memories: rows.length, tokens: rows.reduce((sum, row) => sum + tokenCount(row.content), 0) };
}

async function main(): Promise<void> {
  const file = flag('--locomo') ?? path.join(shared, 'locomo/locomo-dev5.json');
  const root = mkdtempSync(path.join(os.tmpdir(), 'engram-lifecycle-bench-'));
  try {
    const runs: Run[] = [];
    for (const corpus of loadLocomo(file)) runs.push(await runConversation(corpus, root));
    const total = (pick: (r: Run) => number) => runs.reduce((s, r) => s + pick(r), 0);
    const questions = total((r) => r.reportQuestions);
    const weighted = (pick: (r: Run) => number) =>
      round(total((r) => pick(r) * r.reportQuestions) / questions, 3);
    const summary = {
      ...runStamp(),
      runs,
      total: {
        memories: { before: total((r) => r.memories.before), after: total((r) => r.memories.after) },
        tokens: { before: total((r) => r.tokens.before), after: total((r) => r.tokens.after) },
        recallAt10: {
          before: weighted((r) => r.recallAt10.before),
          after: weighted((r) => r.recallAt10.after),
        },
        reportQuestions: questions,
      },
    };
    if (args.includes('--json')) {
      process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
      return;
    }
    process.stdout.write(`${summary.date} ${summary.machine}, load ${summary.load}\n`);
    for (const r of [
      ...runs,
      { conversation: 'all', ...summary.total, promoted: 0, archived: 0, consolidated: 0 },
    ])
      process.stdout.write(
        `${r.conversation.padEnd(10)} memories ${r.memories.before} -> ${r.memories.after}, tokens ${r.tokens.before} -> ${r.tokens.after} (${round(r.tokens.before / Math.max(1, r.tokens.after), 2)}x), report-half recall@10 ${r.recallAt10.before} -> ${r.recallAt10.after} (${r.reportQuestions} questions)${r.conversation === 'all' ? '' : `; promoted ${r.promoted}, archived ${r.archived}, consolidated ${r.consolidated}`}\n`,
      );
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
