import type { MemoryStore } from '../memory/memoryStore';
import { currentMemory } from '../memory/memoryQueries';
import type { Actor } from '../memory/types';
import { driftStateOf, markFlagged } from './claimStore';
import type { ClaimReport, DriftReport, FixAction, FixReport, MemoryDrift } from './driftReport';
import { checkDrift } from './driftCheck';
import type { DriftCheckOptions } from './driftCheck';

export interface FixOptions extends DriftCheckOptions {
  dryRun?: boolean;
  /**
   * The memories the user accepted the repair of (VS Code's per-memory review, `--id`): only
   * these are repaired, human-written ones included. Without it, every drifted memory written by
   * an agent or an import is repaired, and a human-written one only gets its proposal for review.
   */
  ids?: readonly string[];
}

/**
 * `drift --fix`: checks, then repairs each drifted memory. Moved paths and symbols are rewritten
 * in a new version (the old one stays in the history); a memory whose every claim is dead is
 * invalidated from the commit that made it false; the rest get a review annotation (once per
 * content). A human's memory is never rewritten or invalidated without consent (`ids`): it gets a
 * review with the proposed text instead. With `dryRun` nothing is written beyond the check itself.
 */
export async function fixDrift(store: MemoryStore, options: FixOptions = {}): Promise<DriftReport> {
  const report = await checkDrift(store, options);
  const accepted = options.ids ? new Set(options.ids) : undefined;
  const actions = report.memories
    .filter((memory) => !accepted || accepted.has(memory.id))
    .flatMap((memory) => {
      const current = store.read((r) => currentMemory(r, memory.id));
      const consent = accepted !== undefined || current.trust !== 'human';
      return planFor(memory, current.content, consent);
    });
  if (!options.dryRun) for (const action of actions) apply(store, action, options.actor ?? {});
  const fix: FixReport = { dryRun: options.dryRun === true, actions };
  return { ...report, fix };
}

function planFor(memory: MemoryDrift, content: string, consent: boolean): FixAction[] {
  const actions = plannedRepairs(memory, content);
  if (consent) return actions;
  // Asked, not done: the proposal travels with the review so the user can accept it.
  return actions.map((action) =>
    action.action === 'review'
      ? action
      : {
          id: action.id,
          action: 'review',
          reason: `proposed ${action.action} (a human's memory is changed only when accepted): ${action.reason}`,
          proposed: action.action,
          ...(action.content !== undefined ? { content: action.content } : {}),
        },
  );
}

function plannedRepairs(memory: MemoryDrift, content: string): FixAction[] {
  // Doubtful findings (low-confidence claims) are never repaired: they are shown for review.
  const claims = memory.claims.filter((c) => c.evidence.doubtful !== true);
  const moved = claims.filter(
    (c) => (c.verdict === 'moved' && c.evidence.target !== undefined) || c.evidence.repair !== undefined,
  );
  // A repaired value the memory repeats in words ("Defaults to 30 seconds") is left for review.
  const stale = claims.filter(
    (c) => c.verdict === 'stale' && (c.evidence.repair === undefined || c.repeats !== undefined),
  );
  if (memory.status === 'dead') {
    const validTo = memory.validTo ?? undefined;
    return [
      {
        id: memory.id,
        action: 'invalidate',
        reason: `drift: ${reasons(stale)}`,
        ...(validTo ? { validTo } : {}),
      },
    ];
  }
  const actions: FixAction[] = [];
  if (moved.length > 0) {
    actions.push({
      id: memory.id,
      action: 'rewrite',
      reason: `drift: ${reasons(moved)}`,
      content: rewrite(content, moved),
    });
  }
  if (stale.length > 0)
    actions.push({ id: memory.id, action: 'review', reason: `drift, please review: ${reasons(stale)}` });
  return actions;
}

function reasons(claims: readonly ClaimReport[]): string {
  return claims
    .map((c) => {
      const commit = c.evidence.commit
        ? ` in ${c.evidence.commit.hash.slice(0, 10)} (${c.evidence.commit.date.slice(0, 10)})`
        : '';
      const target = c.evidence.target ? ` -> ${c.evidence.target}` : '';
      return `${c.subject}: ${c.evidence.reason}${target}${commit}`;
    })
    .join('; ');
}

/**
 * The content with each moved claim's text replaced by its target (a path claim's own span, a
 * symbol's or route's file span) and each repairable claim's by its repair (a signature, a config
 * value). Spans are applied from the end so earlier ones keep their offsets.
 */
function rewrite(original: string, moved: readonly ClaimReport[]): string {
  const edits = moved
    .map((c) =>
      c.evidence.repair
        ? { span: c.evidence.repair.span, target: c.evidence.repair.text }
        : {
            span: c.kind === 'symbol' || c.kind === 'route' ? c.fileSpan : c.span,
            target: c.evidence.target as string,
          },
    )
    .filter((e): e is { span: [number, number]; target: string } => e.span !== undefined)
    .sort((a, b) => b.span[0] - a.span[0]);
  let content = original;
  let lastStart = Number.POSITIVE_INFINITY;
  for (const { span, target } of edits) {
    if (span[1] > lastStart) continue; // two claims on one stretch of text: the later one already rewrote it
    content = content.slice(0, span[0]) + target + content.slice(span[1]);
    lastStart = span[0];
  }
  return content;
}

function apply(store: MemoryStore, action: FixAction, actor: Actor): void {
  if (action.action === 'rewrite' && action.content !== undefined) {
    store.edit(action.id, { content: action.content }, actor);
  } else if (action.action === 'invalidate') {
    store.invalidate(action.id, action.reason, actor, action.validTo);
  } else if (action.action === 'review') {
    const memory = store.read((r) => currentMemory(r, action.id));
    const state = store.read((r) => driftStateOf(r, action.id));
    if (state?.flaggedHash === memory.contentHash) return;
    store.annotate(action.id, action.reason, actor);
    store.write((tx) => markFlagged(tx, action.id, memory.contentHash));
  }
}
