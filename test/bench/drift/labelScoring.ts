import type { DriftReport, FixAction, MemoryDrift } from '../../../engine/drift/driftReport';
import type { LabelledClaim, LabelledMemory } from './labelFile';
import { quoteSpan } from './labelFile';

/**
 * Scores one repository's drift report against its hand labels. A flag is a claim the engine calls
 * stale or moved; it is right when it lands on a claim labelled false, wrong when it lands on one
 * labelled true or on text with no labelled claim (every claim of a benchmark memory is labelled).
 */
export interface MemoryUnderScore {
  label: LabelledMemory;
  text: string;
  drift: MemoryDrift | undefined;
  fix: FixAction[];
}

interface Counts {
  labelled: number;
  falseClaims: number;
  extracted: number;
  falseExtracted: number;
  flags: number;
  /** Flags that land on a claim labelled false (the precision numerator). */
  rightFlags: number;
  /** Claims labelled false that were flagged. */
  truePositives: number;
  /** Flags on claims that a commit after the memory made false (the recall numerator). */
  driftFound: number;
  attributed: number;
  attributable: number;
}

const emptyCounts = (): Counts => ({
  labelled: 0,
  falseClaims: 0,
  extracted: 0,
  falseExtracted: 0,
  flags: 0,
  rightFlags: 0,
  truePositives: 0,
  driftFound: 0,
  attributed: 0,
  attributable: 0,
});

type Span = [number, number];
const overlaps = (a: Span, b: Span) => a[0] < b[1] && b[0] < a[1];
const FLAGGED = new Set(['stale', 'moved']);
/** A flag is a claim called false with confidence: doubtful findings only ask for review. */
const isFlag = (claim: { verdict: string; evidence: { doubtful?: boolean } }) =>
  FLAGGED.has(claim.verdict) && claim.evidence.doubtful !== true;
const DRIFTED = new Set(['stale', 'moved', 'dead']);

export interface RepositoryScore {
  byType: Record<string, Counts>;
  total: Counts;
  memories: { shownDrifted: number; reallyFalse: number; shownAndFalse: number; total: number };
  repairs: {
    rewrites: number;
    correct: number;
    damaging: number;
    invalidations: number;
    justified: number;
    reviews: number;
    /** Memories an unjustified invalidation or a damaging rewrite would act on. */
    wrongActions: Array<{ memory: string; action: string; reason: string }>;
  };
  flagsOnNothing: Array<{ memory: string; kind: string; subject: string; reason: string }>;
  flagsOnTrue: Array<{ memory: string; type: string; subject: string; reason: string }>;
  missed: Array<{ memory: string; type: string; subject: string; extracted: boolean }>;
  /** Labelled claims no engine claim overlaps: what extraction recall counts as lost. */
  unextracted: Array<{ memory: string; type: string; holds: LabelledClaim['holds']; quote: string }>;
  /** Right flags blamed on another commit than the label's: the label's and the engine's. */
  misattributed: Array<{ memory: string; subject: string; expected: string; got: string[] }>;
}

export function scoreRepository(memories: readonly MemoryUnderScore[]): RepositoryScore {
  const byType: Record<string, Counts> = {};
  const total = emptyCounts();
  const counts = (type: string) => (byType[type] ??= emptyCounts());
  const result: RepositoryScore = {
    byType,
    total,
    memories: { shownDrifted: 0, reallyFalse: 0, shownAndFalse: 0, total: memories.length },
    repairs: {
      rewrites: 0,
      correct: 0,
      damaging: 0,
      invalidations: 0,
      justified: 0,
      reviews: 0,
      wrongActions: [],
    },
    flagsOnNothing: [],
    flagsOnTrue: [],
    missed: [],
    unextracted: [],
    misattributed: [],
  };
  for (const memory of memories) {
    const labelled = memory.label.claims
      .map((claim) => ({ claim, span: quoteSpan(memory.text, claim.quote, claim.occurrence ?? 1) }))
      .filter((c): c is { claim: LabelledClaim; span: Span } => c.span !== undefined);
    const engineClaims = memory.drift?.claims ?? [];
    // A flag or a repair on a repeat of a labelled quote (the same path linked five times in a
    // block, labelled once) is on that claim; counts of labelled claims use the first only.
    const covered = [...labelled, ...repeatsOf(memory.text, labelled)];
    for (const { claim, span } of labelled) {
      const matches = engineClaims.filter((e) => overlaps(e.span, span));
      const flagged = matches.filter(isFlag);
      for (const c of [counts(claim.type), total]) {
        c.labelled++;
        if (matches.length > 0) c.extracted++;
      }
      if (matches.length === 0)
        result.unextracted.push({
          memory: memory.label.id,
          type: claim.type,
          holds: claim.holds,
          quote: claim.quote,
        });
      for (const c of [counts(claim.type), total]) {
        if (claim.holds === false) {
          // False already when the memory was written (no commit made it so): no drift to find.
          const drifted = Boolean(claim.commit);
          if (drifted) c.falseClaims++;
          if (drifted && matches.length > 0) c.falseExtracted++;
          if (flagged.length > 0) {
            c.truePositives++;
            if (drifted) c.driftFound++;
            if (claim.commit) {
              c.attributable++;
              if (flagged.some((f) => f.evidence.commit?.hash === claim.commit)) c.attributed++;
              else if (c === total)
                result.misattributed.push({
                  memory: memory.label.id,
                  subject: claim.subject,
                  expected: claim.commit,
                  got: flagged.map((f) => f.evidence.commit?.hash ?? 'none'),
                });
            }
          }
        }
      }
      if (claim.holds === false && claim.commit && flagged.length === 0)
        result.missed.push({
          memory: memory.label.id,
          type: claim.type,
          subject: claim.subject,
          extracted: matches.length > 0,
        });
    }
    for (const engine of engineClaims.filter(isFlag)) {
      const on = covered.filter((l) => overlaps(l.span, engine.span));
      if (on.some((l) => l.claim.holds === 'unclear') && !on.some((l) => l.claim.holds === false)) continue;
      const type = on[0]?.claim.type ?? `unlabelled ${engine.kind}`;
      counts(type).flags++;
      total.flags++;
      if (on.some((l) => l.claim.holds === false)) {
        counts(type).rightFlags++;
        total.rightFlags++;
      }
      if (on.length === 0)
        result.flagsOnNothing.push({
          memory: memory.label.id,
          kind: engine.kind,
          subject: engine.subject,
          reason: engine.evidence.reason,
        });
      else if (!on.some((l) => l.claim.holds === false))
        result.flagsOnTrue.push({
          memory: memory.label.id,
          type,
          subject: engine.subject,
          reason: engine.evidence.reason,
        });
    }
    const reallyFalse = labelled.some((l) => l.claim.holds === false);
    const shown = memory.drift !== undefined && DRIFTED.has(memory.drift.status);
    if (reallyFalse) result.memories.reallyFalse++;
    if (shown) result.memories.shownDrifted++;
    if (shown && reallyFalse) result.memories.shownAndFalse++;
    scoreFix(memory, covered, result.repairs);
  }
  return result;
}

/** The other places a labelled quote of a few words at most stands verbatim in the memory. */
function repeatsOf(
  text: string,
  labelled: ReadonlyArray<{ claim: LabelledClaim; span: Span }>,
): Array<{ claim: LabelledClaim; span: Span }> {
  const repeats: Array<{ claim: LabelledClaim; span: Span }> = [];
  for (const { claim, span } of labelled) {
    // A name, a path or a call is one claim wherever it is repeated; a sentence is not repeated.
    if (claim.quote.trim().split(/\s+/).length > 3) continue;
    for (let at = text.indexOf(claim.quote); at !== -1; at = text.indexOf(claim.quote, at + 1)) {
      if (at !== span[0]) repeats.push({ claim, span: [at, at + claim.quote.length] });
    }
  }
  return repeats;
}

function scoreFix(
  memory: MemoryUnderScore,
  labelled: ReadonlyArray<{ claim: LabelledClaim; span: Span }>,
  repairs: RepositoryScore['repairs'],
): void {
  for (const action of memory.fix) {
    // A human's memory gets its repair as a proposal in a review: score what accepting it would do.
    const proposal = action.action === 'review' && /^proposed (\w+)/.exec(action.reason)?.[1];
    const kind = proposal || action.action;
    if (action.action === 'review' && !proposal) repairs.reviews++;
    if (kind === 'invalidate') {
      repairs.invalidations++;
      if (labelled.length > 0 && labelled.every((l) => l.claim.holds !== true)) repairs.justified++;
      else repairs.wrongActions.push({ memory: memory.label.id, action: kind, reason: action.reason });
    }
    const content = action.content;
    if (kind !== 'rewrite' || content === undefined) continue;
    repairs.rewrites++;
    const changed = changedRegions(memory.text, content);
    const damages = changed.some(
      (region) => !labelled.some((l) => l.claim.holds === false && overlaps(l.span, region)),
    );
    if (damages) {
      repairs.damaging++;
      repairs.wrongActions.push({ memory: memory.label.id, action: kind, reason: action.reason });
    } else if (
      labelled.every((l) => l.claim.holds !== false || l.claim.repair == null || repaired(content, l.claim))
    )
      repairs.correct++;
  }
}

/** The repaired text reads as the label's repair says (its replacement is there). */
function repaired(content: string, claim: LabelledClaim): boolean {
  return claim.repair ? content.includes(claim.repair.replacement) : true;
}

/**
 * [start, end) regions of `before` that `after` changed, from a word-level longest common
 * subsequence (texts are at most a few thousand characters). An insertion is a zero-width region
 * widened to the word it follows.
 */
export function changedRegions(before: string, after: string): Span[] {
  const words = (text: string) => [...text.matchAll(/\S+|\s+/g)].map((m) => ({ text: m[0], at: m.index }));
  const a = words(before);
  const b = words(after);
  const table: number[][] = Array.from({ length: a.length + 1 }, () =>
    new Array<number>(b.length + 1).fill(0),
  );
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      (table[i] as number[])[j] =
        a[i]?.text === b[j]?.text
          ? ((table[i + 1] as number[])[j + 1] as number) + 1
          : Math.max((table[i + 1] as number[])[j] as number, (table[i] as number[])[j + 1] as number);
  const regions: Span[] = [];
  let i = 0;
  let j = 0;
  let open: number | undefined;
  const flush = (end: number) => {
    if (open !== undefined) regions.push([Math.max(0, Math.min(open, end - 1)), Math.max(end, open + 1)]);
    open = undefined;
  };
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i]?.text === b[j]?.text) {
      flush(a[i]?.at as number);
      i++;
      j++;
    } else if (
      j < b.length &&
      (i >= a.length ||
        ((table[i] as number[])[j + 1] as number) >= ((table[i + 1] as number[])[j] as number))
    ) {
      open ??= a[i]?.at ?? before.length;
      j++;
    } else {
      open ??= a[i]?.at as number;
      i++;
    }
  }
  flush(before.length);
  return regions;
}

export function ratio(numerator: number, denominator: number): string {
  return denominator === 0 ? '-' : (numerator / denominator).toFixed(2);
}

export type { DriftReport };
