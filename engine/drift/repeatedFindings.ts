import type { ClaimReport } from './driftReport';

/**
 * One finding per false statement. An options list that documents a removed option in its own
 * item ("* `maxAge` Maximum age in ms.") and names it in passing elsewhere ("if you set a
 * `maxAge`") states one thing that is false, and the user should see it once: on the item that
 * documents it, with the spans of the passing mentions, rather than once per mention. Only the
 * bare name merges, and only into such an item (mentions of a name no item documents, a call with
 * arguments, a path, a default beside its option are statements of their own); so do two findings
 * that the same default changed ("Default: `30e3` ... Defaults to 30 seconds."), into the first.
 * A repeat the rewrite would change (a repaired value) keeps its finding; a repaired one with
 * repeats also asks for review, since the rewrite cannot reach them (driftRepair). Doubtful
 * findings are shown for review as they are.
 */
export function oneFindingPerFact(text: string, claims: readonly ClaimReport[]): ClaimReport[] {
  const groups = new Map<string, ClaimReport[]>();
  for (const claim of [...claims].sort((a, b) => a.span[0] - b.span[0])) {
    const key = staleKey(claim);
    if (key !== undefined) groups.set(key, [...(groups.get(key) ?? []), claim]);
  }
  const keptFor = new Map<ClaimReport, ClaimReport>();
  for (const group of groups.values()) {
    const defaults = group[0]?.evidence.reason === 'default changed';
    const kept = defaults ? group[0] : group.find((c) => bareName(text, c) && documentsItem(text, c));
    if (kept === undefined) continue;
    for (const claim of group) {
      if (claim === kept || claim.evidence.repair !== undefined) continue;
      if (defaults || bareName(text, claim)) keptFor.set(claim, kept);
    }
  }
  if (keptFor.size === 0) return [...claims];
  const spansOf = new Map<ClaimReport, Array<[number, number]>>();
  for (const [repeat, kept] of keptFor) spansOf.set(kept, [...(spansOf.get(kept) ?? []), repeat.span]);
  return claims
    .filter((claim) => !keptFor.has(claim))
    .map((claim) => {
      const spans = spansOf.get(claim);
      return spans === undefined ? claim : { ...claim, repeats: spans };
    });
}

const MERGED_KINDS: ReadonlySet<ClaimReport['kind']> = new Set(['symbol', 'config']);

/** What makes two confident stale findings candidates: the kind, name, negation and commit. */
function staleKey(claim: ClaimReport): string | undefined {
  const { verdict, evidence } = claim;
  if (verdict !== 'stale' || evidence.doubtful === true || !MERGED_KINDS.has(claim.kind)) return undefined;
  const cause = evidence.commit?.hash ?? evidence.reason;
  return [claim.kind, claim.subject, claim.negated, evidence.reason, cause].join('\u0000');
}

/** The name opens a list item: "* `maxAge` Maximum age in ms.", "- **maxAge**: ...". */
function documentsItem(text: string, claim: ClaimReport): boolean {
  const lineStart = text.lastIndexOf('\n', claim.span[0] - 1) + 1;
  return /^[ \t]*(?:[*+-]|\d+[.)])[ \t]+[`*_]*$/.test(text.slice(lineStart, claim.span[0]));
}

/** The span is the name alone (`maxAge`, or the last part of `opts.maxAge`), not a call or a value. */
function bareName(text: string, claim: ClaimReport): boolean {
  const written = text.slice(claim.span[0], claim.span[1]).replace(/^[`'"]|[`'"]$/g, '');
  if (written !== claim.subject && written !== claim.subject.split('.').at(-1)) return false;
  // `maxAge(` is a call; "`maxAge` (default: none)" is the name, its code span closed.
  return !/^\s*\(/.test(text.slice(claim.span[1]));
}
