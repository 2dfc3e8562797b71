import { z } from 'zod';
import type { RepoMapFile } from '../../code/repoMap';
import { truncateToTokens } from '../../retrieval/tokenCount';
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
import { defineTool, READ_ONLY } from '../toolDefinition';
import type { ToolContext, ToolDefinition } from '../toolDefinition';
import { driftView, memoryDriftSchema, memoryLines } from './driftTools';
import type { MemoryDriftView } from './driftTools';
import { queryField } from './fields';
import { locateTool } from './locateTool';

/** The engine's searches return at most this many hits; a cursor pages within them. */
const MAX_SEARCH_HITS = 1000;

const pathField = z.string().min(1).max(4096);

const scanTool = defineTool({
  name: 'code_scan',
  title: 'Scan the workspace',
  description:
    "Scan the workspace into Engram's code index (files, symbols, imports, references, manifests) and bring the codebase memories up to date; a rescan parses only changed files. paths rescans just those files or directories. Needed before code_symbols, code_files and code_map when the index is empty or stale. The memories whose claims name a changed file are then checked for drift, as drift_check does with paths, and the drifted ones listed.",
  group: 'code',
  profiles: ['full'],
  // Writes the code index and codebase memories (invalidating those of deleted files), and ends the
  // memories its drift check finds false (valid_to), as drift_check does; a repeat finds nothing changed.
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  input: () =>
    z.object({
      paths: z
        .array(pathField)
        .min(1)
        .max(1000)
        .optional()
        .describe('rescan just these files or directories (workspace-relative); default the whole workspace'),
      tokens: z
        .boolean()
        .optional()
        .describe('also measure codebase memory tokens against source tokens (slower)'),
      budget: budgetField,
    }),
  output: () =>
    z.object({
      root: z.string(),
      generation: z.number(),
      files: z.number(),
      symbols: z.number(),
      imports: z.number(),
      skipped: z.number(),
      skippedByReason: z.record(z.string(), z.number()),
      counts: z.object({
        added: z.number(),
        changed: z.number(),
        deleted: z.number(),
        renamed: z.number(),
        unchanged: z.number(),
      }),
      changes: z.object({
        added: z.array(z.string()),
        changed: z.array(z.string()),
        deleted: z.array(z.string()),
        renamed: z.array(z.object({ from: z.string(), to: z.string() })),
      }),
      /** The change lists were cut to the budget; counts has the totals. */
      changesTruncated: z.boolean(),
      memories: z.object({
        files: z.number(),
        added: z.number(),
        unchanged: z.number(),
        invalidated: z.number(),
        /** Drafts over a limit the host set: not written. */
        rejected: z.number(),
        memoryTokens: z.number(),
      }),
      tokenRatio: z
        .object({ memoryTokens: z.number(), sourceTokens: z.number(), ratio: z.number() })
        .optional(),
      interruptedScans: z.array(z.number()),
      importsReresolved: z.number(),
      millis: z.number(),
      drift: z.object({
        /** Memories checked again: those naming a changed path, and those never checked before. */
        checked: z.number(),
        /** How many of them drifted (moved, stale or dead); `memories` lists those the budget left room for. */
        drifted: z.number(),
        memories: z.array(memoryDriftSchema),
        truncated: z.boolean(),
        error: z.string().optional(),
      }),
    }),
  async run({ paths, tokens, budget = DEFAULT_BUDGET }, context) {
    const result = await context.call('scan', {
      ...(paths ? { paths } : {}),
      ...(tokens ? { tokens } : {}),
    });
    const { changes } = result;
    const counts = {
      added: changes.added.length,
      changed: changes.changed.length,
      deleted: changes.deleted.length,
      renamed: changes.renamed.length,
      unchanged: changes.unchanged,
    };
    const summary = {
      root: result.root,
      generation: result.generation,
      files: result.files,
      symbols: result.symbols,
      imports: result.imports,
      skipped: result.skipped,
      skippedByReason: result.skippedByReason,
      counts,
      memories: result.memories,
      ...(result.tokenRatio ? { tokenRatio: result.tokenRatio } : {}),
      interruptedScans: result.interruptedScans,
      importsReresolved: result.importsReresolved,
      millis: result.millis,
    };
    const { drift } = result;
    const driftCounts = {
      checked: drift.checked.length,
      drifted: drift.memories.length,
      ...(drift.error === undefined ? {} : { error: drift.error }),
    };
    // A scan cannot be paged (a repeat finds nothing changed), so the drifted memories and the path
    // lists are cut to the budget left by the summary, shared out in order: the drift first (what
    // the agent must act on), then deleted and renamed (what memories lost).
    let left = Math.max(0, budget - jsonTokens({ ...summary, drift: driftCounts }) - 60);
    const take = <T>(items: T[]): T[] => {
      const kept = strictlyWithin(items, left);
      left -= jsonTokens(kept);
      return kept;
    };
    const drifted = take(drift.memories.map(driftView));
    const driftShown = {
      ...driftCounts,
      memories: drifted,
      truncated: drifted.length < drift.memories.length,
    };
    const deleted = take(changes.deleted);
    const renamed = take(changes.renamed);
    const changed = take(changes.changed);
    const added = take(changes.added);
    const changesTruncated =
      deleted.length < counts.deleted ||
      renamed.length < counts.renamed ||
      changed.length < counts.changed ||
      added.length < counts.added;
    const m = result.memories;
    return {
      structured: {
        ...summary,
        changes: { added, changed, deleted, renamed },
        changesTruncated,
        drift: driftShown,
      },
      text: [
        `scanned ${result.root} in ${(result.millis / 1000).toFixed(2)} s: ${result.files} files, ${result.symbols} symbols, ${result.imports} imports, ${result.skipped} skipped`,
        `changes: ${counts.added} added, ${counts.changed} changed, ${counts.deleted} deleted, ${counts.renamed} renamed, ${counts.unchanged} unchanged`,
        `codebase memories: ${m.added} added, ${m.unchanged} unchanged, ${m.invalidated} invalidated${m.rejected ? `, ${m.rejected} rejected (over a size limit)` : ''}`,
        ...(result.tokenRatio
          ? [`token ratio ${result.tokenRatio.ratio.toFixed(3)} (memories / source)`]
          : []),
        ...deleted.map((p) => `deleted ${p}`),
        ...renamed.map((r) => `renamed ${r.from} -> ${r.to}`),
        ...changed.map((p) => `changed ${p}`),
        ...added.map((p) => `added ${p}`),
        ...(changesTruncated ? ['(change lists cut to the budget; counts above are complete)'] : []),
        ...driftText(driftShown),
      ].join('\n'),
    };
  },
});

/** The scan's drift in words: one block per drifted memory shown, or why there is none. */
function driftText(drift: {
  checked: number;
  drifted: number;
  memories: MemoryDriftView[];
  truncated: boolean;
  error?: string;
}): string[] {
  if (drift.error !== undefined) return [`drift not checked: ${drift.error}`];
  if (drift.drifted === 0) return [`no drift in the changed files (${drift.checked} memories checked)`];
  return [
    `drift: ${drift.drifted} of ${drift.checked} memories checked drifted`,
    ...drift.memories.flatMap(memoryLines),
    ...(drift.truncated ? [`(${drift.drifted - drift.memories.length} more: see drift_check)`] : []),
  ];
}

interface SearchPage<T> {
  items: T[];
  next: string | null;
  offset: number;
}

/** Runs an engine search for the hits after the cursor and keeps those that fit the budget. */
async function searchPage<T>(
  tool: string,
  search: (limit: number) => Promise<T[]>,
  args: {
    query: string;
    limit?: number | undefined;
    budget?: number | undefined;
    cursor?: string | undefined;
  },
): Promise<SearchPage<T>> {
  const offset = cursorNumber(tool, decodeCursor(tool, args.cursor), 'o', 0);
  const limit = args.limit ?? 20;
  const asked = Math.min(MAX_SEARCH_HITS, offset + limit);
  const hits = offset >= asked ? [] : await search(asked);
  const page = fitToBudget(hits.slice(offset), args.budget ?? DEFAULT_BUDGET);
  // More when the budget cut the page, or when the engine filled the window it was asked for.
  const more = page.taken < hits.length - offset || (hits.length === asked && asked < MAX_SEARCH_HITS);
  return { items: page.items, next: more ? encodeCursor(tool, { o: offset + page.taken }) : null, offset };
}

const searchInput = {
  limit: z.number().int().min(1).max(200).optional().describe('most results per page (default 20)'),
  budget: budgetField,
  cursor: cursorField,
};

const symbolsTool = defineTool({
  name: 'code_symbols',
  title: 'Find symbols',
  description:
    'Find classes, functions, methods and types in the code index whose name (or Container.name) contains the query: exact names first, then prefixes, exported before private. Each hit has its file, lines, signature and doc line.',
  group: 'code',
  profiles: ['full'],
  hints: READ_ONLY,
  input: () =>
    z.object({ query: z.string().min(1).max(500).describe('part of a symbol name'), ...searchInput }),
  output: () =>
    z.object({
      symbols: z.array(
        z.object({
          name: z.string(),
          kind: z.string(),
          signature: z.string(),
          doc: z.string().nullable(),
          path: z.string(),
          startLine: z.number(),
          endLine: z.number(),
          exported: z.boolean(),
          container: z.string().nullable(),
        }),
      ),
      nextCursor: nextCursorField,
    }),
  async run(args, context) {
    const page = await searchPage(
      'code_symbols',
      (limit) => context.call('symbols', { query: args.query, limit }),
      args,
    );
    const lines = page.items.map(
      (s) =>
        `${s.path}:${s.startLine}-${s.endLine} ${s.kind} ${s.container ? `${s.container}.` : ''}${s.name}${s.exported ? ' (exported)' : ''}: ${s.signature}`,
    );
    return {
      structured: { symbols: page.items, nextCursor: page.next },
      text: [
        ...(lines.length
          ? lines
          : [`(no symbols matching "${args.query}"; run code_scan if the index is empty)`]),
        ...(page.next ? [`more with cursor ${page.next}`] : []),
      ].join('\n'),
    };
  },
});

const filesTool = defineTool({
  name: 'code_files',
  title: 'Find files',
  description:
    'Find files in the code index whose workspace path contains the query, with language, lines, size and symbol count.',
  group: 'code',
  profiles: ['full'],
  hints: READ_ONLY,
  input: () =>
    z.object({ query: z.string().min(1).max(500).describe('part of a file path'), ...searchInput }),
  output: () =>
    z.object({
      files: z.array(
        z.object({
          path: z.string(),
          language: z.string().nullable(),
          lines: z.number(),
          size: z.number(),
          symbols: z.number(),
        }),
      ),
      nextCursor: nextCursorField,
    }),
  async run(args, context) {
    const page = await searchPage(
      'code_files',
      (limit) => context.call('files', { query: args.query, limit }),
      args,
    );
    const lines = page.items.map(
      (f) => `${f.path} (${f.language ?? 'no language'}, ${f.lines} lines, ${f.symbols} symbols)`,
    );
    return {
      structured: { files: page.items, nextCursor: page.next },
      text: [
        ...(lines.length
          ? lines
          : [`(no files matching "${args.query}"; run code_scan if the index is empty)`]),
        ...(page.next ? [`more with cursor ${page.next}`] : []),
      ].join('\n'),
    };
  },
});

const mapFileSchema = z.object({
  path: z.string(),
  rank: z.number(),
  symbols: z.array(
    z.object({
      name: z.string(),
      kind: z.string(),
      signature: z.string(),
      line: z.number(),
      container: z.string().nullable(),
      rank: z.number(),
    }),
  ),
});

export const repoMapOutput = z.object({
  text: z.string(),
  tokens: z.number(),
  budget: z.number(),
  files: z.array(mapFileSchema),
  /** Files left out of `files` to keep the result within the budget (all are in `text`). */
  filesOmitted: z.number(),
  indexedFiles: z.number(),
  focus: z.object({
    files: z.array(z.string()),
    unknown: z.array(z.string()),
    identifiers: z.array(z.string()),
    mentionedFiles: z.array(z.string()),
  }),
  note: z.string().optional(),
});

const MAP_TEXT_SHARE = 0.4;

/**
 * The repo map within `budget` tokens in all: the rendered text gets 40%, the structured file
 * list (the same files, ranked) what the text and the rest leave.
 */
export async function repoMapWithin(
  request: { focus?: string[] | undefined; query?: string | undefined },
  budget: number,
  context: ToolContext,
): Promise<z.input<typeof repoMapOutput>> {
  const map = await context.call('map', {
    ...(request.focus ? { focus: request.focus } : {}),
    ...(request.query ? { query: request.query } : {}),
    budget: Math.max(16, Math.floor(budget * MAP_TEXT_SHARE)),
  });
  const { files, ...rest } = map;
  // JSON escaping makes the text dearer in the structured result than the map counted it.
  const text = truncateToTokens(rest.text, Math.floor(budget * MAP_TEXT_SHARE));
  const head = { ...rest, text, filesOmitted: 0 };
  const kept = strictlyWithin<RepoMapFile>(files, budget - jsonTokens(head) - 20);
  return { ...head, files: kept, filesOmitted: files.length - kept.length };
}

const mapTool = defineTool({
  name: 'code_map',
  title: 'Repository map',
  description:
    'A ranked map of the repository within a token budget: the most important files (by references, centred on focus files and what the query names) with the signatures of their main symbols. Use at the start of a task to find where things are; a larger budget shows more files.',
  group: 'code',
  profiles: ['full'],
  hints: READ_ONLY,
  input: () =>
    z.object({
      focus: z
        .array(pathField)
        .max(100)
        .optional()
        .describe('files to centre the map on (workspace-relative), e.g. the ones being edited'),
      query: queryField
        .optional()
        .describe('the task in words; files and identifiers it names centre the map'),
      budget: budgetField,
    }),
  output: () => repoMapOutput,
  async run({ focus, query, budget = DEFAULT_BUDGET }, context) {
    const map = await repoMapWithin({ focus, query }, budget, context);
    const footer = `(${map.tokens} tokens of ${map.budget}; ${map.files.length + map.filesOmitted} of ${map.indexedFiles} indexed files)`;
    return {
      structured: map,
      text: [map.text || '(empty map)', ...(map.note ? [map.note] : []), footer].join('\n'),
    };
  },
});

export const CODE_TOOLS: ToolDefinition[] = [scanTool, symbolsTool, filesTool, locateTool, mapTool];
