import type { CodeSearchIndex } from './codeSearchIndex';
import { codeTerms } from './codeTerms';
import type { CodeField, FieldWeights } from './fieldIndex';
import { rolesAskedFor } from './pathRoles';
import type { PathRole } from './pathRoles';

/**
 * The code channel's parameters. The defaults were chosen on the tuning half of the localisation
 * bench (test/bench/localizationTuning.ts; pytest, requests, flask: 28 issues): against the
 * untuned start, the path-role priors are worth +0.25 hit@5 (0.571 without), a query term's
 * repeats counted as sqrt +0.11, the best symbol's full score +0.04; field weights, k1 and the
 * body's b moved hit@5 by one issue or none and were left at textbook values.
 */
export interface CodeSearchParams {
  /** Field weights of file documents. */
  files: FieldWeights;
  /** Field weights of symbol documents. */
  symbols: FieldWeights;
  /** A file's best symbol adds this share of its score to the file's. */
  symbolShare: number;
  /** Score factor per path role, unless the query asks for that role (pathRoles.ts). */
  priors: Record<PathRole, number>;
  /** Score factor of files no grammar parsed (text, data, config). */
  unparsedPrior: number;
  /** A query term repeated n times weighs n^queryTfPower (0: once is enough). */
  queryTfPower: number;
}

export const DEFAULT_CODE_SEARCH: CodeSearchParams = {
  files: {
    k1: 1.2,
    weight: { path: 3, names: 2, signatures: 1, docs: 1, body: 1 },
    b: { path: 0.3, names: 0.5, signatures: 0.5, docs: 0.5, body: 0.75 },
  },
  symbols: {
    k1: 1.2,
    weight: { path: 0, names: 3, signatures: 1.5, docs: 1, body: 1 },
    b: { path: 0, names: 0.3, signatures: 0.5, docs: 0.5, body: 0.75 },
  },
  symbolShare: 1,
  priors: { implementation: 1, test: 0.3, docs: 0.3, example: 0.3, fixture: 0.2, benchmark: 0.5 },
  unparsedPrior: 0.5,
  queryTfPower: 0.5,
};

export interface CodeSymbolHit {
  name: string;
  container: string | null;
  kind: string;
  line: number;
  endLine: number;
  score: number;
}

/** One file the code channel found, with why: the fields that matched and its best symbols. */
export interface CodeFileHit {
  path: string;
  role: PathRole;
  score: number;
  /** The BM25F score of the file document, per field. */
  fields: Partial<Record<CodeField, number>>;
  /** What its best symbol added (symbolShare of that symbol's score). */
  symbolScore: number;
  /** The factor of its role and kind (1 for implementation, or a role the query asks for). */
  prior: number;
  symbols: CodeSymbolHit[];
}

const SYMBOLS_SHOWN = 3;

/** The files that best match a question about the code, best first. */
export function searchCode(
  index: CodeSearchIndex,
  query: string,
  limit: number,
  params: CodeSearchParams = DEFAULT_CODE_SEARCH,
): CodeFileHit[] {
  const counts = new Map<string, number>();
  for (const term of codeTerms(query)) counts.set(term, (counts.get(term) ?? 0) + 1);
  const terms = new Map([...counts].map(([term, n]) => [term, n ** params.queryTfPower]));
  const n = index.fileIndex.size;
  const idf = (term: string) => {
    const df = index.fileIndex.documentFrequency(term);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  };
  const bySymbol = new Map<number, CodeSymbolHit[]>();
  for (const hit of index.symbolIndex.search(terms, params.symbols, idf)) {
    const symbol = index.symbols[hit.doc]!;
    const list = bySymbol.get(symbol.file) ?? [];
    list.push({
      name: symbol.name,
      container: symbol.container,
      kind: symbol.kind,
      line: symbol.line,
      endLine: symbol.endLine,
      score: hit.score,
    });
    bySymbol.set(symbol.file, list);
  }
  const asked = rolesAskedFor(query);
  const hits: CodeFileHit[] = [];
  for (const hit of index.fileIndex.search(terms, params.files, idf)) {
    const file = index.files[hit.doc]!;
    const symbols = (bySymbol.get(hit.doc) ?? []).sort((a, b) => b.score - a.score).slice(0, SYMBOLS_SHOWN);
    const symbolScore = params.symbolShare * (symbols[0]?.score ?? 0);
    const prior =
      (asked.has(file.role) ? 1 : params.priors[file.role]) * (file.parsed ? 1 : params.unparsedPrior);
    hits.push({
      path: file.path,
      role: file.role,
      score: (hit.score + symbolScore) * prior,
      fields: hit.fields,
      symbolScore,
      prior,
      symbols,
    });
  }
  return hits.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path)).slice(0, limit);
}
