import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { ConsolidationCluster } from '../../engine/lifecycle/consolidation';
import type { RememberManyResult } from '../../engine/memory/types';
import type { RecallResult } from '../../engine/retrieval/recall';
import { activeSize, cardLines, creditedDocs, openBenchHost } from './lifecycleMeasures';
import type { BenchCall } from './lifecycleMeasures';
import { parseLmeDate } from './recall/datasets';
import { hitAt, recallAllAt } from './recall/metrics';
import { questionHalf } from './recall/questionSplit';
import { round } from './stats';

/**
 * LongMemEval in the lifecycle bench (issue 21, section 6): the oracle's 940 sessions, every turn
 * one episodic memory of its session, written in time order on a simulated clock; the questions
 * of the development half (the `tuning` half of recall/questionSplit.ts: sha1 of the question id,
 * even first byte, fixed before this bench existed) asked at their own dates, so their recalls
 * are the accesses; the other half (`reporting`) only measured, at the end.
 *
 * Two memories built from the same timeline: "before" without a lifecycle, "after" with the
 * lifecycle and consolidation run every simulated week (a host runs them every 15 minutes; a week
 * is what the simulation can afford, 140 of them). Both are measured at the day after the last
 * question: active memories and their tokens, and the benchmark's headline metrics, recall_any@5
 * and recall_all@5 of the gold sessions, sessions ranked by their first turn among the top 20
 * memories recalled (as callers ask, no `detail`; also with `detail` false, the consolidated
 * memories only, and true, drill-down). A consolidated memory or a peer card counts
 * for the sessions of the turns its text quotes. Abstention questions (no gold) are left out.
 */

const DAY = 24 * 60 * 60 * 1000;
const WEEK = 7 * DAY;
/** Memories asked per question; sessions are ranked by their first turn among them. */
const RECALLED = 20;
const SESSIONS_SCORED = 5;

interface Session {
  id: string;
  at: number;
  turns: string[];
}

interface Question {
  id: string;
  text: string;
  gold: string[];
  at: number;
  half: 'development' | 'report';
}

interface Timeline {
  sessions: Session[];
  questions: Question[];
}

export interface LmeHalf {
  questions: number;
  /**
   * `after` as callers ask (no `detail`: recall's default drill-down, engine/retrieval/drillDown.ts);
   * `quoted` with `detail: false` (consolidated memories only); `drillDown` with `detail: true`.
   */
  recallAny5: { before: number; quoted: number; after: number; drillDown: number };
  recallAll5: { before: number; quoted: number; after: number; drillDown: number };
}

/** Sums over one half's questions: as asked, and with drill-down. */
interface Scores {
  any: number;
  all: number;
  quotedAny: number;
  quotedAll: number;
  drillAny: number;
  drillAll: number;
  n: number;
}

export interface LmeRun {
  turns: number;
  sessions: number;
  lifecycleRuns: number;
  memories: { before: number; after: number };
  tokens: { before: number; after: number };
  cardTokens: { before: number; after: number };
  promoted: number;
  archived: number;
  consolidated: { summaries: number; members: number };
  development: LmeHalf;
  report: LmeHalf;
}

interface LmeRecord {
  question_id: string;
  question: string;
  question_date: string;
  haystack_session_ids: string[];
  haystack_dates: string[];
  haystack_sessions: Array<Array<{ role: string; content: string }>>;
  answer_session_ids: string[];
}

/**
 * `sample`: only that many development-half records (in sha1 order of their ids) and their
 * sessions, for iterating on a change in minutes; the report half is then left out entirely.
 */
function loadTimeline(file: string, sample?: number): Timeline {
  const raw = readFileSync(file);
  const all = JSON.parse((file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8')) as LmeRecord[];
  const sha1 = (id: string) => createHash('sha1').update(id).digest('hex');
  const records =
    sample === undefined
      ? all
      : all
          .filter((r) => !r.question_id.endsWith('_abs') && questionHalf(r.question_id) === 'tuning')
          .sort((a, b) => sha1(a.question_id).localeCompare(sha1(b.question_id)))
          .slice(0, sample);
  const sessions = new Map<string, Session>();
  for (const record of records)
    record.haystack_session_ids.forEach((id, i) => {
      const at = parseLmeDate(record.haystack_dates[i] ?? '');
      if (sessions.has(id) || at === undefined) return;
      const turns = (record.haystack_sessions[i] ?? []).map((t) => `${t.role}: ${t.content}`);
      sessions.set(id, { id, at, turns });
    });
  const questions = records
    .filter((r) => !r.question_id.endsWith('_abs'))
    .map((r) => ({
      id: r.question_id,
      text: r.question,
      gold: r.answer_session_ids,
      at: parseLmeDate(r.question_date) ?? 0,
      half: questionHalf(r.question_id) === 'tuning' ? ('development' as const) : ('report' as const),
    }));
  const byTime = <T extends { at: number; id: string }>(a: T, b: T) =>
    a.at - b.at || a.id.localeCompare(b.id);
  return { sessions: [...sessions.values()].sort(byTime), questions: questions.sort(byTime) };
}

interface Built {
  memories: number;
  tokens: number;
  cardTokens: number;
  development: Scores;
  report: Scores;
  lifecycleRuns: number;
  promoted: number;
  archived: number;
  summaries: number;
  members: number;
}

const emptyScores = (): Scores => ({
  any: 0,
  all: 0,
  quotedAny: 0,
  quotedAll: 0,
  drillAny: 0,
  drillAll: 0,
  n: 0,
});
const emptyBuilt = (): Omit<Built, 'development' | 'report'> => ({
  memories: 0,
  tokens: 0,
  cardTokens: 0,
  lifecycleRuns: 0,
  promoted: 0,
  archived: 0,
  summaries: 0,
  members: 0,
});

/** One memory built from the timeline, with or without the weekly lifecycle, measured at the end. */
async function build(timeline: Timeline, dbPath: string, withLifecycle: boolean): Promise<Built> {
  let now = timeline.sessions[0]!.at;
  const { host, call } = await openBenchHost(dbPath, () => now, 'lme');
  const docOf = new Map<string, string[]>();
  const textOf = new Map<string, string>();
  const built: Built = { ...emptyBuilt(), development: emptyScores(), report: emptyScores() };
  const lifecycle = async () => {
    host.store.flushReads();
    const pass = await call<{ promoted: unknown[]; archived: unknown[] }>('lifecycle', { dryRun: false });
    const run = await call<{ clusters: ConsolidationCluster[]; created: string[] }>('consolidate', {
      dryRun: false,
    });
    // A consolidated memory stands for the sessions of the turns its text quotes.
    run.created.forEach((id, i) =>
      docOf.set(id, [...new Set(run.clusters[i]!.quoted.flatMap((m) => docOf.get(m) ?? []))]),
    );
    built.lifecycleRuns++;
    built.promoted += pass.promoted.length;
    built.archived += pass.archived.length;
    built.summaries += run.created.length;
    built.members += run.clusters.reduce((sum, c) => sum + c.members.length, 0);
  };
  const events = [
    ...timeline.sessions.map((session) => ({ at: session.at, session, question: undefined })),
    ...timeline.questions
      .filter((q) => q.half === 'development')
      .map((question) => ({ at: question.at, session: undefined, question })),
  ].sort((a, b) => a.at - b.at);
  let nextRun = now + WEEK;
  for (const event of events) {
    while (withLifecycle && event.at >= nextRun) {
      now = nextRun;
      await lifecycle();
      nextRun += WEEK;
    }
    // A session is written when it ends (its turns are a minute apart); a question when asked.
    now = Math.max(now, event.at + (event.session ? event.session.turns.length * 60_000 : 0));
    if (event.session) await remember(call, event.session, docOf, textOf);
    // A development question asked as a user would: its recall is an access to what it finds.
    else if (event.question) await call('recall', { query: event.question.text, k: RECALLED });
  }
  now = Math.max(now, ...timeline.questions.map((q) => q.at)) + DAY;
  if (withLifecycle) await lifecycle();
  Object.assign(built, activeSize(host));
  // A peer card is credited per question with the turns of its lines that matched it.
  const cards = cardLines(host, docOf, textOf);
  for (const q of timeline.questions) {
    // As callers ask (no `detail`); then the consolidated memories only (`detail: false`) and with
    // every consolidated hit's matching members (`detail: true`, drill-down). Without a lifecycle
    // nothing is consolidated: the three are the same.
    const ranked = async (detail?: boolean) => {
      const { hits } = await call<RecallResult>('recall', {
        query: q.text,
        k: RECALLED,
        readOnly: true,
        ...(detail === undefined ? {} : { detail }),
      });
      return [...new Set(hits.flatMap((h) => creditedDocs(h.memory.id, q.text, docOf, cards)))];
    };
    const half = built[q.half];
    const asked = await ranked();
    half.any += hitAt(asked, q.gold, SESSIONS_SCORED);
    half.all += recallAllAt(asked, q.gold, SESSIONS_SCORED);
    const quoted = withLifecycle ? await ranked(false) : asked;
    half.quotedAny += hitAt(quoted, q.gold, SESSIONS_SCORED);
    half.quotedAll += recallAllAt(quoted, q.gold, SESSIONS_SCORED);
    const drilled = withLifecycle ? await ranked(true) : asked;
    half.drillAny += hitAt(drilled, q.gold, SESSIONS_SCORED);
    half.drillAll += recallAllAt(drilled, q.gold, SESSIONS_SCORED);
    half.n++;
  }
  await host.close();
  return built;
}

/** A session's turns, one memory each, a minute apart from the session's date. */
async function remember(
  call: BenchCall,
  session: Session,
  docOf: Map<string, string[]>,
  textOf: Map<string, string>,
): Promise<void> {
  const results = await call<RememberManyResult[]>('rememberMany', {
    memories: session.turns.map((content, i) => ({
      content,
      validFrom: session.at + i * 60_000,
      layer: 'episodic',
      dedupe: false,
      actor: { session: session.id },
    })),
    actor: { session: session.id },
  });
  results.forEach((r, i) => {
    if (r.outcome === 'rejected') return;
    docOf.set(r.memory.id, [session.id]);
    textOf.set(session.id, `${textOf.get(session.id) ?? ''}\n${session.turns[i]}`);
  });
}

/**
 * `only`: build one of the two memories (its columns; the other's read 0), so that "before" and
 * "after" can run as two processes side by side on a loaded machine.
 */
export async function runLongMemEval(
  file: string,
  root: string,
  sample?: number,
  only?: 'before' | 'after',
): Promise<LmeRun> {
  const timeline = loadTimeline(file, sample);
  const skipped = (): Built => ({ ...emptyBuilt(), development: emptyScores(), report: emptyScores() });
  const before =
    only === 'after' ? skipped() : await build(timeline, path.join(root, 'lme-before.db'), false);
  const after = only === 'before' ? skipped() : await build(timeline, path.join(root, 'lme-after.db'), true);
  const half = (name: 'development' | 'report'): LmeHalf => {
    const mean = (b: Built, pick: keyof Omit<Scores, 'n'>) =>
      round(b[name][pick] / Math.max(1, b[name].n), 3);
    return {
      questions: Math.max(before[name].n, after[name].n),
      recallAny5: {
        before: mean(before, 'any'),
        quoted: mean(after, 'quotedAny'),
        after: mean(after, 'any'),
        drillDown: mean(after, 'drillAny'),
      },
      recallAll5: {
        before: mean(before, 'all'),
        quoted: mean(after, 'quotedAll'),
        after: mean(after, 'all'),
        drillDown: mean(after, 'drillAll'),
      },
    };
  };
  return {
    turns: timeline.sessions.reduce((sum, s) => sum + s.turns.length, 0),
    sessions: timeline.sessions.length,
    lifecycleRuns: after.lifecycleRuns,
    memories: { before: before.memories, after: after.memories },
    tokens: { before: before.tokens, after: after.tokens },
    cardTokens: { before: before.cardTokens, after: after.cardTokens },
    promoted: after.promoted,
    archived: after.archived,
    consolidated: { summaries: after.summaries, members: after.members },
    development: half('development'),
    report: half('report'),
  };
}

/** One line per half for the text report. */
export function longMemEvalLines(run: LmeRun): string[] {
  const halfLine = (name: string, h: LmeHalf) =>
    `  ${name} (${h.questions} q): recall_any@5 ${h.recallAny5.before} -> quoted ${h.recallAny5.quoted} / default ${h.recallAny5.after} / drill-down ${h.recallAny5.drillDown}, recall_all@5 ${h.recallAll5.before} -> quoted ${h.recallAll5.quoted} / default ${h.recallAll5.after} / drill-down ${h.recallAll5.drillDown}`;
  return [
    `longmemeval oracle: ${run.turns} turns of ${run.sessions} sessions; ${run.lifecycleRuns} weekly lifecycle runs: promoted ${run.promoted}, archived ${run.archived}, consolidated ${run.consolidated.members} into ${run.consolidated.summaries}`,
    `  active memories ${run.memories.before} -> ${run.memories.after}, tokens ${run.tokens.before} -> ${run.tokens.after} (${round(run.tokens.before / Math.max(1, run.tokens.after), 2)}x; peer cards ${run.cardTokens.before} -> ${run.cardTokens.after})`,
    halfLine('development', run.development),
    halfLine('report', run.report),
  ];
}
