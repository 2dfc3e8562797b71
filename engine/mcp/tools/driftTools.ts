import { z } from 'zod';
import { DRIFT_STATUSES, VERDICTS } from '../../drift/claimTypes';
import type { DriftReport, FixAction, MemoryDrift } from '../../drift/driftReport';
import {
  budgetField,
  cursorField,
  cursorNumber,
  decodeCursor,
  DEFAULT_BUDGET,
  encodeCursor,
  fitToBudget,
  jsonTokens,
  nextCursorField,
  strictlyWithin,
} from '../budget';
import { defineTool } from '../toolDefinition';
import type { ToolContext, ToolDefinition } from '../toolDefinition';

const REPAIRS = ['rewrite', 'invalidate', 'review'] as const;
const iso = (time: number | null | undefined) => (time == null ? null : new Date(time).toISOString());

const claimSchema = z.object({
  kind: z.string(),
  subject: z.string(),
  span: z.array(z.number()).length(2),
  negated: z.boolean(),
  file: z.string().optional(),
  fileSpan: z.array(z.number()).length(2).optional(),
  line: z.number().optional(),
  version: z.string().optional(),
  verdict: z.enum(VERDICTS),
  evidence: z.object({
    reason: z.string(),
    target: z.string().optional(),
    foundIn: z.array(z.string()).optional(),
    commit: z
      .object({
        hash: z.string(),
        date: z.string(),
        time: z.number(),
        message: z.string(),
        author: z.string(),
      })
      .optional(),
    now: z.string().optional(),
  }),
});

export const memoryDriftSchema = z.object({
  id: z.string(),
  status: z.enum(DRIFT_STATUSES),
  excerpt: z.string(),
  validTo: z
    .string()
    .nullable()
    .describe('when the memory stopped being true (the commit that made it false)'),
  suggestion: z.enum(REPAIRS).nullable(),
  claims: z.array(claimSchema),
  /** Claims left out to fit the budget (the ok ones go first); drift_claims-style detail is in the engine. */
  claimsOmitted: z.number(),
});
export type MemoryDriftView = z.input<typeof memoryDriftSchema>;

const summarySchema = {
  root: z.string(),
  history: z.object({
    git: z.boolean(),
    head: z.string().nullable(),
    shallow: z.boolean(),
    note: z.string(),
  }),
  checked: z.object({
    memories: z.number(),
    claims: z.number(),
    extracted: z.number(),
    incremental: z.boolean(),
  }),
  verdicts: z.record(z.string(), z.number()),
  statuses: z.record(z.string(), z.number()),
  score: z.number().describe('0-100: the share of memories with checkable claims that drifted'),
  /** How many memories the report lists in all (drifted ones, or every checked one with `all`). */
  total: z.number(),
  millis: z.number(),
};

export function driftView(memory: MemoryDrift): MemoryDriftView {
  return { ...memory, validTo: iso(memory.validTo), claimsOmitted: 0 };
}

/** A memory too large for the budget: its false claims first, as many as fit, the excerpt cut. */
function shrinkDrift(view: MemoryDriftView, budget: number): MemoryDriftView {
  const ordered = [...view.claims].sort((a, b) => Number(a.verdict === 'ok') - Number(b.verdict === 'ok'));
  const base = { ...view, excerpt: view.excerpt.slice(0, 100), claims: [] };
  const claims = strictlyWithin(ordered, Math.max(0, budget - jsonTokens(base) - 10));
  return { ...base, claims, claimsOmitted: view.claims.length - claims.length };
}

function summaryOf(report: DriftReport) {
  return {
    root: report.root,
    history: report.history,
    checked: report.checked,
    verdicts: report.verdicts,
    statuses: report.statuses,
    score: report.score,
    total: report.memories.length,
    millis: report.millis,
  };
}

export function memoryLines(m: MemoryDriftView): string[] {
  const until = m.validTo ? ` valid until ${m.validTo}` : '';
  const lines = [
    `${m.status.toUpperCase()} ${m.id}${until}: ${m.excerpt.replace(/\s+/g, ' ').slice(0, 120)}`,
  ];
  for (const c of m.claims) {
    if (c.verdict === 'ok' && m.status !== 'ok') continue;
    const target = c.evidence.target ? ` -> ${c.evidence.target}` : '';
    const commit = c.evidence.commit
      ? ` [${c.evidence.commit.hash.slice(0, 10)} ${c.evidence.commit.date.slice(0, 10)} "${c.evidence.commit.message.split('\n')[0]}"]`
      : '';
    lines.push(
      `  ${c.verdict} ${c.kind} ${c.negated ? 'NOT ' : ''}${c.subject}: ${c.evidence.reason}${target}${commit}`,
    );
  }
  if (m.suggestion) lines.push(`  suggested: ${m.suggestion}`);
  return lines;
}

function headline(report: DriftReport): string {
  const v = report.verdicts;
  return [
    `drift score ${report.score}/100 for ${report.root}; history: ${report.history.note}`,
    `checked ${report.checked.memories} memories, ${report.checked.claims} claims${report.checked.incremental ? ' (named paths only)' : ''}: ${v.ok} ok, ${v.stale} stale, ${v.moved} moved, ${v.unverifiable} unverifiable`,
  ].join('\n');
}

/** A drift check with the listed memories from `offset` fitted to `budget`, for drift_check and drift://report. */
export async function driftCheckPage(
  args: { paths?: string[] | undefined; all?: boolean | undefined },
  offset: number,
  budget: number,
  context: ToolContext,
) {
  const report = await context.call('drift', {
    ...(args.paths ? { paths: args.paths } : {}),
    ...(args.all ? { all: true } : {}),
  });
  const summary = summaryOf(report);
  const page = fitToBudget(
    report.memories.slice(offset).map(driftView),
    Math.max(200, budget - jsonTokens(summary) - 20),
    shrinkDrift,
  );
  const taken = offset + page.taken;
  const next = taken < report.memories.length ? encodeCursor('drift_check', { o: taken }) : null;
  return { report, summary, memories: page.items, next };
}

const pathsField = z
  .array(z.string().min(1).max(4096))
  .min(1)
  .max(1000)
  .optional()
  .describe('only the memories whose claims name these workspace paths');

const checkTool = defineTool({
  name: 'drift_check',
  title: 'Check memories for drift',
  description:
    'Check the claims memories make (paths, symbols, scripts, dependencies, commands, config keys, env vars, routes) against the workspace files, code index and git history, and list the memories that drifted with the commit that made them false. Never touches files. It records its verdicts: a memory found false gets its valid-to time set to that commit (it leaves current recall; its history stays) and a drift event. Repairs nothing: see drift_fix.',
  group: 'drift',
  profiles: ['full'],
  // Ends memories found false (valid_to), as memory_invalidate does; a repeat records nothing new.
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  input: () =>
    z.object({
      paths: pathsField,
      all: z.boolean().optional().describe('list every checked memory, not only the drifted ones'),
      budget: budgetField,
      cursor: cursorField,
    }),
  output: () =>
    z.object({ ...summarySchema, memories: z.array(memoryDriftSchema), nextCursor: nextCursorField }),
  async run({ paths, all, budget = DEFAULT_BUDGET, cursor }, context) {
    // A later page checks again (idempotent: same verdicts) and shows the memories after the cursor.
    const offset = cursorNumber('drift_check', decodeCursor('drift_check', cursor), 'o', 0);
    const { report, summary, memories, next } = await driftCheckPage({ paths, all }, offset, budget, context);
    const shown = offset + memories.length;
    return {
      structured: { ...summary, memories, nextCursor: next },
      text: [
        headline(report),
        ...memories.flatMap(memoryLines),
        next === null
          ? `${shown} of ${summary.total} listed`
          : `${shown} of ${summary.total} listed; more with cursor ${next}`,
      ].join('\n'),
    };
  },
});

const actionSchema = z.object({
  id: z.string(),
  action: z.enum(REPAIRS),
  reason: z.string(),
  content: z.string().optional().describe('for rewrite: the new content'),
  validTo: z.string().optional().describe('for invalidate: the valid-to time given'),
});

const fixTool = defineTool({
  name: 'drift_fix',
  title: 'Repair drifted memories',
  description:
    "Check for drift, then repair: rewrite moved paths and symbols in a new version, invalidate memories whose every claim is false, annotate the rest for review. dryRun (the DEFAULT) only reports what it would do; pass dryRun: false to apply. Never touches files; even a dry run records the check's verdicts and dates false memories, as drift_check does.",
  group: 'drift',
  profiles: ['full'],
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
  input: () =>
    z.object({
      dryRun: z.boolean().optional().describe('only say what would be repaired (default true)'),
      paths: pathsField,
      budget: budgetField,
    }),
  output: () =>
    z.object({
      ...summarySchema,
      dryRun: z.boolean(),
      actions: z.array(actionSchema),
      /** Actions left out to fit the budget (all were applied unless dryRun). */
      actionsOmitted: z.number(),
      memories: z.array(memoryDriftSchema),
    }),
  async run({ dryRun = true, paths, budget = DEFAULT_BUDGET }, context) {
    const report = await context.call('drift', {
      fix: true,
      dryRun,
      ...(paths ? { paths } : {}),
    });
    const summary = summaryOf(report);
    const all: FixAction[] = report.fix?.actions ?? [];
    const views = all.map((a) => ({
      id: a.id,
      action: a.action,
      reason: a.reason,
      ...(a.content === undefined ? {} : { content: a.content }),
      ...(a.validTo === undefined ? {} : { validTo: iso(a.validTo) as string }),
    }));
    // Actions first (what was or would be done), then the drifted memories in what is left.
    let left = Math.max(200, budget - jsonTokens(summary) - 40);
    const actions = fitToBudget(views, Math.floor(left * 0.6), (a, b) => ({
      ...a,
      reason: a.reason.slice(0, b),
      ...(a.content === undefined ? {} : { content: a.content.slice(0, b) }),
    })).items;
    left -= jsonTokens(actions);
    const memories = strictlyWithin(report.memories.map(driftView), Math.max(0, left));
    const verb = dryRun ? 'would' : 'did';
    return {
      structured: {
        ...summary,
        dryRun,
        actions,
        actionsOmitted: all.length - actions.length,
        memories,
      },
      text: [
        headline(report),
        dryRun ? 'fix (dry run, nothing repaired; pass dryRun: false to apply):' : 'fixed:',
        ...(all.length === 0 ? ['  nothing to repair'] : []),
        ...actions.map(
          (a) =>
            `  ${verb} ${a.action} ${a.id}: ${a.action === 'rewrite' ? (a.content ?? '').replace(/\s+/g, ' ').slice(0, 200) : a.reason}`,
        ),
        ...(actions.length < all.length ? [`  (${all.length - actions.length} more actions not shown)`] : []),
      ].join('\n'),
    };
  },
});

export const DRIFT_TOOLS: ToolDefinition[] = [checkTool, fixTool];
