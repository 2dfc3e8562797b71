/**
 * The hand-labelled drift benchmark's files (test/bench/drift-labels/*.json): memories given by
 * locator (a block of a Markdown file at an old commit, never copied here), and for each the claims
 * a careful reader finds, with the verdict at the new commit decided from git by reading.
 */
export const LABEL_TYPES = [
  'path',
  'symbol',
  'signature',
  'call',
  'option',
  'default',
  'cli',
  'script',
  'dependency',
  'env',
  'export',
  'other',
] as const;
export type LabelType = (typeof LABEL_TYPES)[number];

export interface LabelledClaim {
  type: LabelType;
  subject: string;
  /** The exact text that states the claim; `occurrence` (1-based) when it occurs more than once. */
  quote: string;
  occurrence?: number;
  holds: boolean | 'unclear';
  evidence: string;
  /** The first commit after the old one that made the claim false. */
  commit?: string;
  repair?: { quote: string; replacement: string } | null;
  confidence?: 'high' | 'medium';
}

export interface LabelledMemory {
  id: string;
  file: string;
  startLine: number;
  endLine: number;
  sha1OfText: string;
  selection: 'random' | 'stratified';
  claims: LabelledClaim[];
  nonClaims?: Array<{ quote: string; why: string }>;
}

export interface LabelFile {
  repo: string;
  old: { commit: string; date: string };
  new: { commit: string; date: string };
  selection: string;
  memories: LabelledMemory[];
}

/** [start, end) of a quote's n-th occurrence in a text, or undefined when it is not there. */
export function quoteSpan(text: string, quote: string, occurrence = 1): [number, number] | undefined {
  let at = -1;
  for (let n = 0; n < occurrence; n++) {
    at = text.indexOf(quote, at + 1);
    if (at === -1) return undefined;
  }
  return [at, at + quote.length];
}
