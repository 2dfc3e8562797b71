import type { FileIndex } from './codeIndexReader';
import type { CodeSymbol, ManifestRecord } from './types';

export type DraftRelationType = 'DEFINES' | 'IMPORTS' | 'DEPENDS_ON';

/** A codebase-layer memory derived from the index, ready for the memory writer. */
export interface MemoryDraft {
  /**
   * Stable per subject (`code:file:src/a.ts`, `code:symbol:src/a.ts#Limiter.allow`,
   * `code:config:package.json`): use it as the conflict key so a rescan supersedes, never duplicates.
   */
  key: string;
  kind: 'code-module' | 'code-symbol' | 'config';
  content: string;
  tags: string[];
  entities: { name: string; type: 'file' | 'symbol' | 'package' }[];
  relations: { from: string; type: DraftRelationType; to: string }[];
  source: { file: string; startLine?: number; endLine?: number };
}

/** Memories are summaries: caps keep a module's memory a small fraction of its code. */
const MAX_EXPORTS_IN_SUMMARY = 12;
const MAX_IMPORTS_IN_SUMMARY = 8;
const MAX_SYMBOL_MEMORIES = 3;
const MAX_CONFIG_ENTRIES = 25;
const MAX_MEMBERS_LISTED = 6;
const SUMMARY_SIGNATURE_CHARS = 90;
/** A symbol shorter than this is fully described by its line in the module summary. */
const MIN_LINES_FOR_OWN_MEMORY = 20;

/** Symbols worth a memory of their own: large, public types and functions. */
const IMPORTANT_KINDS = new Set(['class', 'interface', 'function', 'enum']);

/**
 * The codebase-layer memories of one indexed file, as a pure function of its index entry: a module
 * summary (exports with signatures, imports), one memory for each important exported symbol, and
 * a config memory for a manifest. Files without symbols, imports or a manifest yield nothing.
 */
export function deriveFileMemories(file: FileIndex): MemoryDraft[] {
  const drafts: MemoryDraft[] = [];
  if (file.manifest) drafts.push(configMemory(file.path, file.manifest));
  if (file.symbols.length > 0 || file.imports.length > 0) drafts.push(moduleMemory(file));
  const important = file.symbols
    .filter((s) => s.exported && s.container === null && IMPORTANT_KINDS.has(s.kind))
    .filter((s) => s.endLine - s.startLine + 1 >= MIN_LINES_FOR_OWN_MEMORY)
    .sort((a, b) => b.endLine - b.startLine - (a.endLine - a.startLine))
    .slice(0, MAX_SYMBOL_MEMORIES);
  for (const symbol of important) drafts.push(symbolMemory(file, symbol));
  return drafts;
}

/**
 * The module's exports, each name once. A method with no container is a method of an object
 * literal (`export const MIGRATIONS = [{ up(tx) {...} }, ...]`): part of a value, not an export of
 * its own, and listed it repeated `up(tx)` once per entry. Overloads keep their first signature.
 */
function moduleExports(file: FileIndex): CodeSymbol[] {
  const byName = new Map<string, CodeSymbol>();
  for (const s of file.symbols)
    if (s.exported && s.container === null && s.kind !== 'method' && !byName.has(s.name))
      byName.set(s.name, s);
  return [...byName.values()];
}

function moduleMemory(file: FileIndex): MemoryDraft {
  const exported = moduleExports(file);
  const shown = exported.slice(0, MAX_EXPORTS_IN_SUMMARY).map(summarySignature);
  const more = exported.length - shown.length;
  // Paths without their extension read as well and cost fewer tokens.
  const imports = file.imports.map((i) => (i.resolved ? i.resolved.replace(/\.[^./]+$/, '') : i.specifier));
  const uniqueImports = [...new Set(imports)];
  const importsShown = uniqueImports.slice(0, MAX_IMPORTS_IN_SUMMARY);
  const parts = [`${file.path} (${file.language ?? 'unknown'}, ${file.lines} lines)`];
  if (shown.length > 0) parts.push(`exports: ${shown.join('; ')}${more > 0 ? `; +${more} more` : ''}`);
  else if (file.symbols.length > 0)
    parts.push(`defines: ${[...new Set(file.symbols.map((s) => s.name))].slice(0, 8).join(', ')}`);
  if (importsShown.length > 0) {
    const rest = uniqueImports.length - importsShown.length;
    parts.push(`imports: ${importsShown.join(', ')}${rest > 0 ? ` +${rest}` : ''}`);
  }
  const resolvedTargets = [...new Set(file.imports.flatMap((i) => (i.resolved ? [i.resolved] : [])))];
  return {
    key: `code:file:${file.path}`,
    kind: 'code-module',
    content: parts.join('. '),
    tags: ['code', 'module', ...(file.language ? [file.language] : [])],
    entities: [
      { name: file.path, type: 'file' },
      ...exported.map((s) => ({ name: s.name, type: 'symbol' as const })),
      ...resolvedTargets.map((target) => ({ name: target, type: 'file' as const })),
    ],
    relations: [
      ...exported.map((s) => ({ from: file.path, type: 'DEFINES' as const, to: s.name })),
      ...resolvedTargets.map((target) => ({ from: file.path, type: 'IMPORTS' as const, to: target })),
    ],
    source: { file: file.path },
  };
}

/**
 * A signature as the summary shows it: a constant's value is dropped unless short (a 40-line
 * object literal says nothing in a summary), and long headers are cut.
 */
function summarySignature(symbol: CodeSymbol): string {
  let text = symbol.signature.replace(/^export\s+(default\s+)?/, '');
  if (symbol.kind === 'constant' && text.length > 48) text = text.replace(/\s*=.*$/s, '');
  return text.length <= SUMMARY_SIGNATURE_CHARS ? text : `${text.slice(0, SUMMARY_SIGNATURE_CHARS - 1)}…`;
}

function firstSentence(text: string): string {
  const end = text.search(/[.!?](\s|$)/);
  return end >= 0 ? text.slice(0, end) : text;
}

function symbolMemory(file: FileIndex, symbol: CodeSymbol): MemoryDraft {
  const members = file.symbols
    .filter((s) => s.container === symbol.name && s.exported && s.startLine >= symbol.startLine)
    .filter((s) => s.endLine <= symbol.endLine)
    .map((s) => s.name);
  const listed = [...new Set(members)].slice(0, MAX_MEMBERS_LISTED);
  const parts = [`${symbol.signature} (${symbol.kind} in ${file.path}:${symbol.startLine})`];
  if (symbol.doc) parts.push(firstSentence(symbol.doc));
  if (listed.length > 0)
    parts.push(`members: ${listed.join(', ')}${members.length > listed.length ? ', …' : ''}`);
  return {
    key: `code:symbol:${file.path}#${symbol.name}`,
    kind: 'code-symbol',
    content: parts.join('. '),
    tags: ['code', 'symbol', symbol.kind],
    entities: [
      { name: symbol.name, type: 'symbol' },
      { name: file.path, type: 'file' },
    ],
    relations: [{ from: file.path, type: 'DEFINES', to: symbol.name }],
    source: { file: file.path, startLine: symbol.startLine, endLine: symbol.endLine },
  };
}

function configMemory(filePath: string, manifest: ManifestRecord): MemoryDraft {
  const { data } = manifest;
  const subject = manifest.name ?? filePath;
  const parts = [`${manifest.kind} ${filePath}${manifest.name ? ` (${manifest.name})` : ''}`];
  const list = (label: string, entries: Record<string, string> | undefined, separator: string) => {
    const all = Object.entries(entries ?? {});
    if (all.length === 0) return;
    const shown = all.slice(0, MAX_CONFIG_ENTRIES).map(([k, v]) => (v ? `${k}${separator}${v}` : k));
    parts.push(
      `${label}: ${shown.join(', ')}${all.length > shown.length ? ` +${all.length - shown.length}` : ''}`,
    );
  };
  list('scripts', data.scripts, ' = ');
  list('dependencies', data.dependencies, ' ');
  list('dev dependencies', data.devDependencies, ' ');
  if (data.baseImages?.length) parts.push(`base images: ${data.baseImages.join(', ')}`);
  if (data.exposedPorts?.length) parts.push(`exposes: ${data.exposedPorts.join(', ')}`);
  if (data.jobs?.length) parts.push(`jobs: ${data.jobs.join(', ')}`);
  if (data.paths && Object.keys(data.paths).length > 0)
    parts.push(`paths: ${Object.keys(data.paths).join(', ')}`);
  if (data.error) parts.push(`unreadable: ${data.error}`);
  const dependencies = [...Object.keys(data.dependencies ?? {}), ...Object.keys(data.devDependencies ?? {})];
  return {
    key: `code:config:${filePath}`,
    kind: 'config',
    content: parts.join('. '),
    tags: ['code', 'config', manifest.kind],
    entities: [
      { name: filePath, type: 'file' },
      ...(manifest.name ? [{ name: manifest.name, type: 'package' as const }] : []),
      ...dependencies.map((name) => ({ name, type: 'package' as const })),
    ],
    relations: dependencies.map((name) => ({ from: subject, type: 'DEPENDS_ON' as const, to: name })),
    source: { file: filePath },
  };
}
