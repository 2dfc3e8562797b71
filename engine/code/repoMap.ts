import path from 'node:path';
import type { SqlReader } from '../store/sqlAccess';
import { mentionsIn } from './mapMentions';
import { indexVersion, loadReferenceGraph } from './referenceGraph';
import type { ReferenceGraph } from './referenceGraph';
import { rankRepository } from './repoRanking';
import type { RepoRanking } from './repoRanking';

export interface RepoMapRequest {
  /** Files to centre the map on (open in the editor): workspace-relative, or absolute under `root`. */
  focus: string[];
  /** Free text whose identifiers and paths also centre the map. */
  query?: string;
  /** Tokens the rendered map may take. */
  budget: number;
  /** The workspace root, to make absolute focus paths relative. */
  root?: string;
  /** Counts tokens as the budget means them (engine/retrieval/tokenCount.ts). */
  countTokens: (text: string) => number;
}

export interface RepoMapSymbol {
  name: string;
  kind: string;
  signature: string;
  line: number;
  container: string | null;
  rank: number;
}

export interface RepoMapFile {
  path: string;
  rank: number;
  symbols: RepoMapSymbol[];
}

export interface RepoMap {
  /** The rendered map: per file its path, then `line: signature` of its most important symbols. */
  text: string;
  tokens: number;
  budget: number;
  /** The files shown, most important first. */
  files: RepoMapFile[];
  /** Files in the code index (the map shows the top of these). */
  indexedFiles: number;
  /** What centred the map: focus files found in the index, focus files that are not, and what the query named. */
  focus: { files: string[]; unknown: string[]; identifiers: string[]; mentionedFiles: string[] };
  /** Why the map is empty or short, when it is. */
  note?: string;
}

/** Beyond this many symbols a file's lines crowd out other files. */
const MAX_SYMBOLS_PER_FILE = 8;

const graphs = new WeakMap<object, { version: string; graph: ReferenceGraph }>();

/**
 * The reference graph of the index, rebuilt only when a scan changed the index: loading it reads
 * every file's references, which on a large repository costs more than ranking.
 */
export function referenceGraphOf(owner: object, r: SqlReader): ReferenceGraph {
  const version = indexVersion(r);
  const cached = graphs.get(owner);
  if (version !== undefined && cached?.version === version) return cached.graph;
  const graph = loadReferenceGraph(r);
  if (version !== undefined) graphs.set(owner, { version, graph });
  else graphs.delete(owner);
  return graph;
}

/**
 * The repo map: the files PageRank ranks highest over the reference graph, personalised to the
 * focus files and to what the query names, each with its most referenced signatures, cut at the
 * token budget. Without focus or query the ranking is the plain (uniform) PageRank.
 */
export function buildRepoMap(r: SqlReader, graph: ReferenceGraph, request: RepoMapRequest): RepoMap {
  const focusPaths = request.focus.map((f) => relativeTo(request.root, f));
  const focusNodes = focusPaths.map((p) => graph.nodeOf.get(p));
  const mentions = request.query ? mentionsIn(request.query, graph) : { identifiers: [], files: [] };
  const focus = {
    files: focusPaths.filter((_, i) => focusNodes[i] !== undefined),
    unknown: focusPaths.filter((_, i) => focusNodes[i] === undefined),
    identifiers: mentions.identifiers,
    mentionedFiles: mentions.files.map((n) => graph.paths[n]!),
  };
  const base = { budget: request.budget, indexedFiles: graph.paths.length, focus };
  if (graph.paths.length === 0)
    return {
      ...base,
      text: '',
      tokens: 0,
      files: [],
      note: 'the code index is empty: run `engram scan` first',
    };

  const seeded = new Set([...focusNodes.filter((n) => n !== undefined), ...mentions.files]);
  const ranking = rankRepository(graph, { files: [...seeded], identifiers: mentions.identifiers });
  const order = [...graph.paths.keys()]
    .filter((node) => graph.symbolCount[node]! > 0 || seeded.has(node))
    .sort((a, b) => ranking.files[b]! - ranking.files[a]! || graph.paths[a]!.localeCompare(graph.paths[b]!));
  const rendered = renderWithinBudget(r, graph, ranking, order, request);
  const result: RepoMap = { ...base, ...rendered };
  if (rendered.files.length === 0)
    result.note =
      order.length === 0
        ? 'no indexed file has symbols to show'
        : `a budget of ${request.budget} tokens is too small for one file`;
  return result;
}

function renderWithinBudget(
  r: SqlReader,
  graph: ReferenceGraph,
  ranking: RepoRanking,
  order: number[],
  request: RepoMapRequest,
): Pick<RepoMap, 'text' | 'tokens' | 'files'> {
  const lines: string[] = [];
  const files: RepoMapFile[] = [];
  let used = 0;
  const fits = (line: string): boolean => used + request.countTokens(`${line}\n`) <= request.budget;
  for (const node of order) {
    const filePath = graph.paths[node]!;
    const symbols = topSymbols(r, filePath, ranking.symbols.get(node));
    const header = `${filePath}${symbols.length > 0 ? ':' : ''}`;
    if (!fits(header)) break;
    const block = [header];
    used += request.countTokens(`${header}\n`);
    const shown: RepoMapSymbol[] = [];
    for (const symbol of symbols) {
      const line = `${symbol.container ? '    ' : '  '}${symbol.line}: ${symbol.signature}`;
      if (!fits(line)) break;
      used += request.countTokens(`${line}\n`);
      block.push(line);
      shown.push(symbol);
    }
    // A path without any of its symbols is worth showing only for a file that has none.
    if (shown.length === 0 && symbols.length > 0) break;
    lines.push(...block);
    files.push({ path: filePath, rank: round(ranking.files[node]!), symbols: shown });
    if (shown.length < symbols.length) break;
  }
  // Tokens of joined lines can differ from the sum of per-line counts by a merge: trim to be exact.
  let text = lines.join('\n');
  let tokens = request.countTokens(text);
  while (tokens > request.budget && lines.length > 0) {
    lines.pop();
    text = lines.join('\n');
    tokens = request.countTokens(text);
  }
  return { text, tokens, files };
}

/** A file's most important symbols (by received rank, then public top-level first), in line order. */
function topSymbols(
  r: SqlReader,
  filePath: string,
  received: Map<string, number> | undefined,
): RepoMapSymbol[] {
  const rows = r.all<{
    name: string;
    kind: string;
    signature: string;
    line: number;
    exported: number;
    container: string | null;
  }>(
    `SELECT s.name, s.kind, s.signature, s.start_line AS line, s.exported, s.container
       FROM code_symbols s JOIN code_files f ON f.id = s.file_id
      WHERE f.path = ? ORDER BY s.start_line, s.id`,
    [filePath],
  );
  const scored = rows.map((row, position) => ({
    symbol: {
      name: row.name,
      kind: row.kind,
      signature: row.signature,
      line: row.line,
      container: row.container,
      rank: round(received?.get(row.name) ?? 0),
    },
    tieBreak: (row.exported ? 2 : 0) + (row.container === null ? 1 : 0),
    position,
  }));
  scored.sort((a, b) => b.symbol.rank - a.symbol.rank || b.tieBreak - a.tieBreak || a.position - b.position);
  return scored
    .slice(0, MAX_SYMBOLS_PER_FILE)
    .sort((a, b) => a.position - b.position)
    .map((s) => s.symbol);
}

function relativeTo(root: string | undefined, file: string): string {
  const relative = root && path.isAbsolute(file) ? path.relative(root, file) : file;
  return relative.split(path.sep).join('/').replace(/^\.\//, '');
}

function round(value: number): number {
  return Number(value.toPrecision(4));
}
